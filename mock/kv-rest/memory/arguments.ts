// Argument parsing shared by the memory engine's commands, with Redis's exact error texts.
import { error, type ErrorReply } from '../reply';

export const NOT_AN_INTEGER = error('ERR value is not an integer or out of range');
export const NOT_A_FLOAT = error('ERR value is not a valid float');
export const SYNTAX_ERROR = error('ERR syntax error');

const INTEGER = /^(0|-?[1-9][0-9]*)$/;
const MAX_INT64 = 9223372036854775807n;
const MIN_INT64 = -9223372036854775808n;

/** Digits whose value is summed exactly in a double: 15 (below 2^53), so no rounding to check. */
const MAX_SUMMED_DIGITS = 15;

/**
 * The value of an integer of at most 15 digits written the way Redis accepts it, or undefined for
 * any other text (longer ones are left to INTEGER and BigInt). A scan instead of the regular
 * expression: counters and script arguments read one or more of these per command.
 */
function shortInteger(text: string): number | undefined {
  const length = text.length;
  const negative = text.charCodeAt(0) === 45; // '-'
  const start = negative ? 1 : 0;
  if (length === start || length - start > MAX_SUMMED_DIGITS) return undefined;
  const first = text.charCodeAt(start);
  if (first === 48) return length === 1 ? 0 : undefined; // '0' alone; no '-0', no leading zero
  let value = 0;
  for (let index = start; index < length; index++) {
    const digit = text.charCodeAt(index) - 48;
    if (digit < 0 || digit > 9) return undefined;
    value = value * 10 + digit;
  }
  return negative ? -value : value;
}

/** A signed 64-bit integer written the way Redis accepts it (no spaces, no `+`, no leading zeros). */
export function parseInteger(text: string): number | ErrorReply {
  const short = shortInteger(text);
  if (short !== undefined) return short;
  if (!INTEGER.test(text)) return NOT_AN_INTEGER;
  const value = Number(text);
  if (Number.isSafeInteger(value)) return value;
  const big = BigInt(text);
  return big > MAX_INT64 || big < MIN_INT64 ? NOT_AN_INTEGER : value;
}

/** Like parseInteger but keeps full 64-bit precision, for INCRBY-style arithmetic. */
export function parseInt64(text: string): bigint | ErrorReply {
  if (!INTEGER.test(text)) return NOT_AN_INTEGER;
  const value = BigInt(text);
  return value > MAX_INT64 || value < MIN_INT64 ? NOT_AN_INTEGER : value;
}

export function inInt64Range(value: bigint): boolean {
  return value <= MAX_INT64 && value >= MIN_INT64;
}

/**
 * A decimal number as strtod reads one (no sign, no hex). Written so that no run of digits can be
 * split two ways (`\d+(?:\.\d*)?`, not `\d+\.?\d*`): the latter backtracks quadratically on a long
 * run of digits followed by a stray character, which a caller can store as a score or a SORT weight.
 */
export const DECIMAL = '(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:e[+-]?\\d+)?';
const FLOAT = new RegExp(`^[+-]?${DECIMAL}$`, 'i');

/** Whether the text is a finite decimal number (sign allowed), without parsing it. */
export const isDecimal = (text: string): boolean => FLOAT.test(text);
const INFINITY = /^[+-]?inf(inity)?$/i;

/** A double as Redis's strtod accepts it, including `inf`, `+inf` and `-inf`; NaN is refused. */
export function parseFloatArg(text: string, invalid: ErrorReply = NOT_A_FLOAT): number | ErrorReply {
  if (INFINITY.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
  if (!isDecimal(text)) return invalid;
  return Number(text);
}

export const isErrorReply = (value: unknown): value is ErrorReply =>
  typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'error';
