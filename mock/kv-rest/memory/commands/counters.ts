// The counter commands INCR, DECR, INCRBY, DECRBY and INCRBYFLOAT: signed 64-bit arithmetic with
// Redis's overflow errors, and long-double arithmetic for floats. A counter keeps its expiry.
import { bulk, error, integer, type ErrorReply, type Reply } from '../../reply';
import { NOT_AN_INTEGER, inInt64Range, isErrorReply, parseInt64, parseInteger } from '../arguments';
import type { CommandContext, CommandHandlers } from '../handler';
import { addLongDoubles, formatLongDouble, isNotFinite, parseLongDouble } from '../long-double';

const OVERFLOW = error('ERR increment or decrement would overflow');
const DECREMENT_OVERFLOW = error('ERR decrement would overflow');
const NOT_A_FLOAT = error('ERR value is not a valid float');
const NAN_OR_INFINITY = error('ERR increment would produce NaN or Infinity');
const MIN_INT64 = -9223372036854775808n;

/** Adds `delta` to the integer at `key` (0 when absent). */
function incrementBy(ctx: CommandContext, key: string, delta: number | bigint): Reply {
  const found = ctx.db.lookupTyped(key, 'string', ctx.now);
  if (isErrorReply(found)) return found;
  const next = incrementInteger(found?.value ?? '0', delta);
  if (isErrorReply(next)) return next;
  const text = String(next);
  // Redis stores the result as a new integer object: no longer raw.
  if (found) {
    found.value = text;
    found.raw = false;
  }
  else ctx.db.set(key, { type: 'string', value: text });
  return integer(next);
}

/**
 * `current + delta` when `current` is an int64 text and the sum fits, else Redis's error. Plain
 * numbers while everything stays within 2^53 (the common case), BigInt beyond.
 */
export function incrementInteger(current: string, delta: number | bigint, notAnInteger: ErrorReply = NOT_AN_INTEGER): number | bigint | ErrorReply {
  const small = parseInteger(current);
  const step = Number(delta);
  if (typeof small === 'number' && Number.isSafeInteger(small) && Number.isSafeInteger(step)) {
    const sum = small + step;
    if (Number.isSafeInteger(sum)) return sum;
  }
  const value = parseInt64(current);
  if (typeof value !== 'bigint') return notAnInteger;
  const sum = value + BigInt(delta);
  return inInt64Range(sum) ? sum : OVERFLOW;
}

/** `current + increment` in Redis's long-double arithmetic, formatted; errors name what is wrong. */
export function incrementFloat(current: string, incrementText: string, notAFloat = NOT_A_FLOAT): string | ErrorReply {
  const value = parseLongDouble(current);
  if (value === undefined) return notAFloat;
  const increment = parseLongDouble(incrementText);
  if (increment === undefined) return NOT_A_FLOAT;
  const sum = addLongDoubles(value, increment);
  return isNotFinite(sum) ? NAN_OR_INFINITY : formatLongDouble(sum);
}

function counter(direction: 1n | -1n, fixedStep: boolean) {
  return (args: readonly string[], ctx: CommandContext): Reply => {
    if (fixedStep) return incrementBy(ctx, args[1], direction);
    // A step within 2^53 (every step a rate limiter sends) stays a plain number: no BigInt per call.
    const small = parseInteger(args[2]);
    if (typeof small === 'number' && Number.isSafeInteger(small)) return incrementBy(ctx, args[1], direction === 1n ? small : -small);
    const step = parseInt64(args[2]);
    if (typeof step !== 'bigint') return step;
    if (direction === -1n && step === MIN_INT64) return DECREMENT_OVERFLOW;
    return incrementBy(ctx, args[1], step * direction);
  };
}

function incrbyfloat(args: readonly string[], ctx: CommandContext): Reply {
  const [, key, incrementText] = args;
  const found = ctx.db.lookupTyped(key, 'string', ctx.now);
  if (isErrorReply(found)) return found;
  const next = incrementFloat(found?.value ?? '0', incrementText);
  if (typeof next !== 'string') return next;
  if (found) found.value = next;
  else ctx.db.set(key, { type: 'string', value: next });
  return bulk(next);
}

export const counterCommandHandlers: CommandHandlers = {
  incr: counter(1n, true),
  decr: counter(-1n, true),
  incrby: counter(1n, false),
  decrby: counter(-1n, false),
  incrbyfloat,
};
