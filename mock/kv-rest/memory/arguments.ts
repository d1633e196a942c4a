// Argument parsing shared by the memory engine's commands, with Redis's exact error texts.
import { error, type ErrorReply } from '../reply';

export const NOT_AN_INTEGER = error('ERR value is not an integer or out of range');
export const NOT_A_FLOAT = error('ERR value is not a valid float');
export const SYNTAX_ERROR = error('ERR syntax error');

const INTEGER = /^(0|-?[1-9][0-9]*)$/;
const MAX_INT64 = 9223372036854775807n;
const MIN_INT64 = -9223372036854775808n;

/** A signed 64-bit integer written the way Redis accepts it (no spaces, no `+`, no leading zeros). */
export function parseInteger(text: string): number | ErrorReply {
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
