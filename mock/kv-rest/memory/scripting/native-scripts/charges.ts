// The plugin's scripts for requests charged more than 1 token (shared/charge-scripts.ts) in
// TypeScript: each makes the calls its Lua text makes, on the same lines, in the same order, with the
// same arguments (numbers written as Lua writes them), and answers what the Lua text answers. The
// inputs, the sliding window's weighting and the bucket's refill and write are the library twins' own
// (fixed-window.ts, sliding-window.ts, token-bucket.ts): the scripts take the library's KEYS and ARGV.
import { array, integer, type Reply } from '../../../reply';
import { formatDouble } from '../../format-double';
import { dynamicLimitIsPlain, effectiveLimit } from './dynamic-limit';
import { numberReply, plainNumber } from './lua-numbers';
import { RUN_ON_LUA, type NativeRun } from './native-run';
import { slidingWindowInput, windowCounts } from './sliding-window';
import { bucketInput, refilledBucket, storeBucket } from './token-bucket';

const COUNTED = integer(1);
const REFUSED = integer(0);

/** What the window scripts answer: counted or not, what is left, the limit. */
const answer = (counted: boolean, remaining: number, limit: number): Reply => array([counted ? COUNTED : REFUSED, numberReply(remaining), numberReply(limit)]);

/** KEYS: key, dynamic limit key?; ARGV: limit, window (ms, sent as is), rate (sent as is to INCRBY). */
export function fixedWindowCharge(run: NativeRun): Reply | typeof RUN_ON_LUA {
  const [key, dynamicLimitKey] = run.keys;
  const [tokensText, window, rateText] = run.argv;
  const tokens = plainNumber(tokensText);
  const rate = plainNumber(rateText);
  if (key === undefined || window === undefined || tokens === undefined || rate === undefined) return RUN_ON_LUA;
  if (!dynamicLimitIsPlain(run, dynamicLimitKey) || !run.holdsPlainNumberOrNothing(key)) return RUN_ON_LUA;
  const limit = effectiveLimit(run, dynamicLimitKey, tokens, 8);
  const stored = run.call(14, 'GET', key);
  const before = stored === false ? 0 : Number(stored);
  if (rate > 0 && limit - before < rate) return answer(false, limit - before, limit);
  const used = run.call(22, 'INCRBY', key, rateText) as number;
  // The first charge of a window creates the key: only then does it get its expiry.
  if (used === rate) run.call(24, 'PEXPIRE', key, window);
  return answer(true, limit - used, limit);
}

/** KEYS: current, previous, dynamic limit key?; ARGV: limit, now, window, rate. */
export function slidingWindowCharge(run: NativeRun): Reply | typeof RUN_ON_LUA {
  const input = slidingWindowInput(run);
  const rate = plainNumber(run.argv[3]);
  if (input === undefined || rate === undefined) return RUN_ON_LUA;
  const { limit, current, previous } = windowCounts(run, input, [10, 16, 20]);
  const remaining = limit - (previous + current);
  if (rate > 0 && remaining < rate) return answer(false, remaining, limit);
  const counted = run.call(30, 'INCRBY', input.currentKey, formatDouble(rate)) as number;
  // Long enough to overlap the next window, plus a second.
  if (counted === rate) run.call(32, 'PEXPIRE', input.currentKey, formatDouble(input.window * 2 + 1000));
  return answer(true, limit - (counted + previous), limit);
}

/** KEYS: bucket, dynamic limit key?; ARGV: max tokens, interval, refill rate, now, rate. Answers {taken or not, what is left, the limit, the next refill}. */
export function tokenBucketCharge(run: NativeRun): Reply | typeof RUN_ON_LUA {
  const input = bucketInput(run);
  if (input === undefined) return RUN_ON_LUA;
  const { limit, refilledAt, tokens } = refilledBucket(run, input, [10, 16]);
  const nextRefill = numberReply(refilledAt + input.interval);
  const rate = input.increment;
  // A refusal writes nothing: the next call refills from the same stored state.
  if (rate > 0 && tokens < rate) return array([REFUSED, numberReply(tokens), numberReply(limit), nextRefill]);
  const remaining = tokens - rate;
  storeBucket(run, input, limit, refilledAt, remaining, [34, 36]);
  return array([COUNTED, numberReply(remaining), numberReply(limit), nextRefill]);
}
