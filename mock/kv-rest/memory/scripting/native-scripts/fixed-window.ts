// @upstash/ratelimit 2.2.0's fixed window scripts in TypeScript: limit and getRemaining, and the
// cached fixed window's pair. Each does the calls its Lua text makes, in the same order, with the
// same arguments (numbers written as Lua writes them), and answers what the Lua text answers.
import { array, integer, type Reply } from '../../../reply';
import { dynamicLimitIsPlain, effectiveLimit } from './dynamic-limit';
import { numberReply, plainNumber } from './lua-numbers';
import { RUN_ON_LUA, type NativeRun } from './native-run';

/** KEYS: key, dynamic limit key?; ARGV: limit, window (ms, sent as is), increment (sent as is). */
export function fixedWindowLimit(run: NativeRun): Reply | typeof RUN_ON_LUA {
  const [key, dynamicLimitKey] = run.keys;
  const [tokensText, window, incrementBy] = run.argv;
  const tokens = plainNumber(tokensText);
  const increment = plainNumber(incrementBy);
  if (key === undefined || window === undefined || tokens === undefined || increment === undefined || !dynamicLimitIsPlain(run, dynamicLimitKey)) return RUN_ON_LUA;
  const limit = effectiveLimit(run, dynamicLimitKey, tokens, 11);
  const count = run.call(17, 'INCRBY', key, incrementBy) as number;
  // The first increment of a window creates the key: only then does it get its expiry.
  if (count === increment) run.call(21, 'PEXPIRE', key, window);
  return array([numberReply(count), numberReply(limit)]);
}

/** KEYS: key, dynamic limit key?; ARGV: limit. Answers {limit - used, limit}. */
export function fixedWindowRemaining(run: NativeRun): Reply | typeof RUN_ON_LUA {
  const [key, dynamicLimitKey] = run.keys;
  const tokens = plainNumber(run.argv[0]);
  if (key === undefined || tokens === undefined || !dynamicLimitIsPlain(run, dynamicLimitKey) || !run.holdsPlainNumberOrNothing(key)) return RUN_ON_LUA;
  const limit = effectiveLimit(run, dynamicLimitKey, tokens, 9);
  const used = run.call(15, 'GET', key);
  return array([numberReply(limit - (used === false ? 0 : Number(used))), numberReply(limit)]);
}

/**
 * KEYS: key; ARGV: window, increment (both sent as is). The Lua text compares INCRBY's number with
 * the increment's string, which Lua never finds equal: the key never gets an expiry, and neither
 * does it here.
 */
export function cachedFixedWindowLimit(run: NativeRun): Reply | typeof RUN_ON_LUA {
  const [key] = run.keys;
  const [window, incrementBy] = run.argv;
  if (key === undefined || window === undefined || incrementBy === undefined) return RUN_ON_LUA;
  return numberReply(run.call(6, 'INCRBY', key, incrementBy) as number);
}

/** KEYS: key. Answers the stored string as is, or 0. */
export function cachedFixedWindowRemaining(run: NativeRun): Reply | typeof RUN_ON_LUA {
  const [key] = run.keys;
  if (key === undefined) return RUN_ON_LUA;
  const value = run.callReply(5, ['GET', key]);
  return value.kind === 'bulk' ? value : integer(0);
}
