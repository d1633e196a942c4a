// Arguments of the hash-field expiry commands (HEXPIRE ... HSETEX), parsed and refused with the
// words Redis 8.0 uses: the `FIELDS numfields field ...` block and a field deadline's bounds.
// The latest deadline is not Redis 8.0's (2^46 ms, its 48-bit expiry less two bits): hosted Upstash
// stores later ones, and the official @upstash/redis suite sends one (a time in milliseconds given
// to HEXPIREAT as seconds, 1.8e15 ms) in a pipeline that must succeed (issue 29).
import { error, type ErrorReply } from '../reply';
import { isErrorReply, parseInteger } from './arguments';
import { invalidExpireTime } from './expiry-options';

/** The latest deadline accepted for a field, in ms since the epoch: the largest a number holds exactly. */
const MAX_FIELD_DEADLINE = Number.MAX_SAFE_INTEGER;

export const FIELDS_MISSING = error('ERR Mandatory argument FIELDS is missing or not at the right position');
const COUNT_MISMATCH = error('ERR The `numfields` parameter must match the number of arguments');
/** HEXPIRE and its siblings word a bad count this way ... */
export const EXPIRE_COUNT_ERROR = error('ERR Parameter `numFields` should be greater than 0');
/** ... and the reads, HPERSIST, HGETEX and HGETDEL this way. */
export const FIELD_COUNT_ERROR = error('ERR Number of fields must be a positive integer');

export type TimeUnit = 'seconds' | 'milliseconds';

/**
 * A field deadline in ms from a relative (`base` = now) or absolute (`base` = 0) time argument,
 * refused as Redis refuses it: not an integer, negative, or past the latest deadline it stores.
 */
export function parseFieldDeadline(text: string, unit: TimeUnit, base: number, command: string): number | ErrorReply {
  const value = parseInteger(text);
  if (isErrorReply(value)) return value;
  if (value < 0) return error('ERR invalid expire time, must be >= 0');
  if (unit === 'seconds' && value > Math.floor(MAX_FIELD_DEADLINE / 1000)) return invalidExpireTime(command);
  const milliseconds = unit === 'seconds' ? value * 1000 : value;
  if (milliseconds > MAX_FIELD_DEADLINE - base) return invalidExpireTime(command);
  return milliseconds + base;
}

/** The fields of a `FIELDS numfields field ...` block whose keyword is at `keywordAt` and which runs to the end. */
export function parseFieldsBlock(args: readonly string[], keywordAt: number, countError: ErrorReply): readonly string[] | ErrorReply {
  if (args[keywordAt]?.toLowerCase() !== 'fields') return FIELDS_MISSING;
  // A missing count reads as 0, as Redis reads the absent argument.
  const count = keywordAt + 1 < args.length ? parseInteger(args[keywordAt + 1]) : 0;
  if (isErrorReply(count) || count < 1) return countError;
  if (count !== args.length - keywordAt - 2) return COUNT_MISMATCH;
  return args.slice(keywordAt + 2);
}
