// @upstash/ratelimit 2.2.0's token bucket scripts in TypeScript: limit and getRemaining, and the
// steps the plugin's own bucket charge shares with limit (charges.ts: its inputs, refill and write).
// The bucket is a hash {refilledAt, tokens}; refills are whole intervals (`math.floor`), the expiry is
// the time to refill completely (`math.ceil`), both with Lua's rounding and number writing.
import { array, type Reply } from '../../../reply';
import { formatDouble } from '../../format-double';
import { dynamicLimitIsPlain, effectiveLimit } from './dynamic-limit';
import { luaCeil, luaFloor, luaMin, numberReply, plainNumber } from './lua-numbers';
import { RUN_ON_LUA, type NativeRun } from './native-run';

/** What getRemaining answers as the refill time of a bucket that does not exist. */
const IDENTIFIER_NOT_FOUND = -1;

/** True when the bucket is missing or not a hash, has no refilledAt, or holds plain numbers in both fields. */
function bucketIsPlain(run: NativeRun, key: string): boolean {
  const fields = run.peekHash(key);
  if (fields === undefined || !fields.has('refilledAt')) return true;
  return plainNumber(fields.get('refilledAt')) !== undefined && plainNumber(fields.get('tokens')) !== undefined;
}

/** What both scripts that take tokens read: KEYS: bucket, dynamic limit key?; ARGV: max tokens, interval, refill rate, now, increment. */
export interface BucketInput {
  readonly key: string;
  readonly dynamicLimitKey: string | undefined;
  readonly maxTokens: number;
  readonly interval: number;
  readonly refillRate: number;
  readonly now: number;
  readonly increment: number;
}

/** The inputs, or undefined when the script must run on Lua (an argument missing or not plain, a stored value not plain). */
export function bucketInput(run: NativeRun): BucketInput | undefined {
  const [key, dynamicLimitKey] = run.keys;
  const [maxTokens, interval, refillRate, now, increment] = run.argv.slice(0, 5).map(plainNumber);
  if (key === undefined || maxTokens === undefined || interval === undefined || refillRate === undefined || now === undefined || increment === undefined) return undefined;
  if (!dynamicLimitIsPlain(run, dynamicLimitKey) || !bucketIsPlain(run, key)) return undefined;
  return { key, dynamicLimitKey, maxTokens, interval, refillRate, now, increment };
}

/** The bucket at `now`: {limit, refilledAt, tokens} after the whole intervals since its refill; `lines`: the script's GET of the dynamic limit and its HMGET. */
export function refilledBucket(run: NativeRun, input: BucketInput, [getLine, hmgetLine]: readonly [number, number]): { limit: number; refilledAt: number; tokens: number } {
  const { key, interval, now } = input;
  const limit = effectiveLimit(run, input.dynamicLimitKey, input.maxTokens, getLine);
  const [storedRefilledAt, storedTokens] = run.call(hmgetLine, 'HMGET', key, 'refilledAt', 'tokens') as (string | false)[];
  let refilledAt = storedRefilledAt === false ? now : Number(storedRefilledAt);
  let tokens = storedRefilledAt === false ? limit : Number(storedTokens);
  if (now >= refilledAt + interval) {
    const refills = luaFloor((now - refilledAt) / interval);
    tokens = luaMin(limit, tokens + refills * input.refillRate);
    refilledAt = refilledAt + refills * interval;
  }
  return { limit, refilledAt, tokens };
}

/** Stores `remaining` tokens refilled at `refilledAt`, expiring once the bucket would be full again; `lines`: the script's HSET and PEXPIRE. */
export function storeBucket(run: NativeRun, input: BucketInput, limit: number, refilledAt: number, remaining: number, [hsetLine, pexpireLine]: readonly [number, number]): void {
  const expireAt = luaCeil((limit - remaining) / input.refillRate) * input.interval;
  run.call(hsetLine, 'HSET', input.key, 'refilledAt', formatDouble(refilledAt), 'tokens', formatDouble(remaining));
  if (expireAt > 0) run.call(pexpireLine, 'PEXPIRE', input.key, formatDouble(expireAt));
}

/** The library's limit script. */
export function tokenBucketLimit(run: NativeRun): Reply | typeof RUN_ON_LUA {
  const input = bucketInput(run);
  if (input === undefined) return RUN_ON_LUA;
  const { limit, refilledAt, tokens } = refilledBucket(run, input, [13, 19]);
  const { increment, interval } = input;
  // Refunds (a negative increment) are never refused.
  if (increment > 0 && tokens < increment) return array([numberReply(-1), numberReply(refilledAt + interval), numberReply(limit)]);
  const remaining = tokens - increment;
  storeBucket(run, input, limit, refilledAt, remaining, [51, 54]);
  return array([numberReply(remaining), numberReply(refilledAt + interval), numberReply(limit)]);
}

/** KEYS: bucket, dynamic limit key?; ARGV: max tokens. Answers {tokens, refilledAt, limit}. */
export function tokenBucketRemaining(run: NativeRun): Reply | typeof RUN_ON_LUA {
  const [key, dynamicLimitKey] = run.keys;
  const maxTokens = plainNumber(run.argv[0]);
  if (key === undefined || maxTokens === undefined || !dynamicLimitIsPlain(run, dynamicLimitKey) || !bucketIsPlain(run, key)) return RUN_ON_LUA;
  const limit = effectiveLimit(run, dynamicLimitKey, maxTokens, 9);
  const [refilledAt, tokens] = run.call(15, 'HMGET', key, 'refilledAt', 'tokens') as (string | false)[];
  if (refilledAt === false) return array([numberReply(limit), numberReply(IDENTIFIER_NOT_FOUND), numberReply(limit)]);
  return array([numberReply(Number(tokens)), numberReply(Number(refilledAt)), numberReply(limit)]);
}
