// Lua 5.1 number semantics, as the memory engine's Lua (fengari, every number a double; see
// ../lua51-numbers.ts) computes them, for the native scripts: which strings they may read as numbers
// without running Lua's own parser, and the operators whose results differ from JS's.
import { integer, type Reply } from '../../../reply';

/**
 * Numerals that Lua's `tonumber`, its string coercion and JS's `Number` read as the same double:
 * plain decimals of at most 15 integer digits (exact below 2^53), no sign on zero, no spaces, hex or
 * exponent, i.e. `^(?:0|-?[1-9]\d{0,14})(?:\.\d{1,15})?$`. A script whose numbers are outside this
 * runs on Lua, which has the final word. Scanned by hand, an integer's value summed on the way (exact:
 * at most 15 digits): a native script reads several of these per call, and this costs a third of
 * that regular expression's test followed by `Number`.
 */
const MAX_INTEGER_DIGITS = 15;
const MAX_FRACTION_DIGITS = 15;

const isDigit = (code: number): boolean => code >= 48 && code <= 57;

/** The number a plain numeral stands for, or undefined for anything else (missing, spaces, `-0`, hex...). */
export function plainNumber(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const length = text.length;
  const negative = text.charCodeAt(0) === 45; // '-'
  let index = negative ? 1 : 0;
  let integer = 0;
  const first = text.charCodeAt(index);
  if (first === 48) {
    // A zero integer part: no sign, no further integer digits.
    if (negative) return undefined;
    index++;
  } else {
    if (!(first >= 49 && first <= 57)) return undefined;
    const integerEnd = index + MAX_INTEGER_DIGITS;
    for (; index < length; index++) {
      const code = text.charCodeAt(index);
      if (!isDigit(code)) break;
      if (index === integerEnd) return undefined;
      integer = integer * 10 + (code - 48);
    }
  }
  if (index === length) return negative ? -integer : integer;
  if (text.charCodeAt(index) !== 46) return undefined; // '.'
  const fractionStart = ++index;
  for (; index < length; index++) if (!isDigit(text.charCodeAt(index)) || index - fractionStart === MAX_FRACTION_DIGITS) return undefined;
  // A fraction is read by Number, which rounds its decimal digits correctly.
  return index > fractionStart ? Number(text) : undefined;
}

/** Lua's `a % b` on floats: the result takes the sign of the divisor. */
export function luaModulo(dividend: number, divisor: number): number {
  const remainder = dividend % divisor;
  return remainder * divisor < 0 ? remainder + divisor : remainder;
}

/** `math.floor`: a result that fits an integer becomes one, so -0 turns into 0. */
export function luaFloor(value: number): number {
  return Math.floor(value) + 0;
}

/** `math.ceil`, with the same integer conversion as luaFloor. */
export function luaCeil(value: number): number {
  return Math.ceil(value) + 0;
}

/** `math.min(a, b)`: b only when b < a (so a NaN in b never wins, unlike Math.min). */
export function luaMin(first: number, second: number): number {
  return second < first ? second : first;
}

/** A Lua number returned from a script: an integer reply, truncated toward zero (a C integer: -0 and -0.5 become 0). */
export function numberReply(value: number): Reply {
  return integer(Math.trunc(value) + 0);
}
