// The plugin's own scripts for a request charged more than 1 token (a GraphQL request's count or
// cost, docs/graphql.md), one per algorithm, in the one place both of their users import them from:
// the plugin, which sends them instead of @upstash/ratelimit's for such a request
// (server/src/limiter/charges.ts), and the memory engine, which recognises them by their SHAs and
// runs TypeScript twins (mock/kv-rest/memory/scripting/native-scripts/charges.ts).
// Why not the library's: its fixed window adds the rate before it compares, so a refused request of 5
// is counted (and other requests see the inflated count until the plugin gives it back); its sliding
// window adds the whole rate whenever the caller is below the limit at all, so a refused request of 5
// with 3 left spends those 3 and more. Its token bucket refuses whole and writes nothing, but answers
// a refusal with -1 in place of the tokens left. All three say 0 remain after a refusal. These take a
// request whole or not at all: refused, changing nothing, when fewer than `rate` tokens are left, and
// answer what is left either way, so a client can size a smaller request. Everything else is the
// library's 2.2.0 scripts' (node_modules/@upstash/ratelimit/dist/index.js): the same KEYS and ARGV
// (so the same keys, slots and live-limit key), the same dynamic-limit read, the same INCRBY or
// bucket arithmetic and expiry, and for `rate` <= 0 (a refund) no check at all; for a rate of 1 the
// decisions are the library's. No shebang: Redis 7.0 runs them as they are.
// Changing one character changes a SHA: the engine then runs the new text on Lua until its twin is
// changed to match (a test proves the two agree).
import { createHash } from 'node:crypto';

/** A script the plugin sends itself: its text, and the SHA-1 EVALSHA names it by (as SCRIPT LOAD computes it). */
export interface ChargeScript {
  readonly text: string;
  readonly sha: string;
}

const script = (text: string): ChargeScript => ({ text, sha: createHash('sha1').update(text).digest('hex') });

/** Every script's first step, the library's own: a live limit, when `dynamicLimitKey` is given and holds one, replaces `limit`. */
const READ_LIVE_LIMIT = `if dynamicLimitKey and dynamicLimitKey ~= "" then
  local dynamicLimit = redis.call("GET", dynamicLimitKey)
  if dynamicLimit then
    limit = tonumber(dynamicLimit)
  end
end`;

/**
 * KEYS: the window's counter, the live-limit key (optional); ARGV: limit, window (ms), rate.
 * Answers {1 when counted else 0, limit - used after the call, limit}.
 */
export const FIXED_WINDOW_CHARGE = script(`local key = KEYS[1]
local dynamicLimitKey = KEYS[2]
local limit = tonumber(ARGV[1])
local window = ARGV[2]
local rate = tonumber(ARGV[3])

${READ_LIVE_LIMIT}

local used = redis.call("GET", key)
if used == false then
  used = 0
end
if rate > 0 and limit - used < rate then
  return {0, limit - used, limit}
end

used = redis.call("INCRBY", key, ARGV[3])
if used == rate then
  redis.call("PEXPIRE", key, window)
end
return {1, limit - used, limit}`);

/**
 * KEYS: the current window's counter, the previous one's, the live-limit key (optional); ARGV: limit,
 * now (ms), window (ms), rate. The previous window counts weighted by how much of it the sliding
 * window still covers, floored, as in the library's. Answers as FIXED_WINDOW_CHARGE.
 */
export const SLIDING_WINDOW_CHARGE = script(`local currentKey = KEYS[1]
local previousKey = KEYS[2]
local dynamicLimitKey = KEYS[3]
local limit = tonumber(ARGV[1])
local now = ARGV[2]
local window = ARGV[3]
local rate = tonumber(ARGV[4])

${READ_LIVE_LIMIT}

local current = redis.call("GET", currentKey)
if current == false then
  current = 0
end
local previous = redis.call("GET", previousKey)
if previous == false then
  previous = 0
end
previous = math.floor((1 - (now % window) / window) * previous)
local remaining = limit - (previous + current)
if rate > 0 and remaining < rate then
  return {0, remaining, limit}
end

current = redis.call("INCRBY", currentKey, rate)
if current == rate then
  redis.call("PEXPIRE", currentKey, window * 2 + 1000)
end
return {1, limit - (current + previous), limit}`);

/**
 * KEYS: the bucket (a hash: refilledAt, tokens), the live-limit key (optional); ARGV: max tokens,
 * interval (ms), refill rate, now (ms), rate. The bucket refills `refillRate` per whole interval
 * since `refilledAt`, up to the limit, as in the library's; a refusal writes nothing (the refill is
 * computed again from the same stored state next time). Answers {1 when taken else 0, the tokens left
 * after the call, limit, the next refill (ms)}.
 */
export const TOKEN_BUCKET_CHARGE = script(`local key = KEYS[1]
local dynamicLimitKey = KEYS[2]
local limit = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local refillRate = tonumber(ARGV[3])
local now = tonumber(ARGV[4])
local rate = tonumber(ARGV[5])

${READ_LIVE_LIMIT}

local bucket = redis.call("HMGET", key, "refilledAt", "tokens")
local refilledAt = now
local tokens = limit
if bucket[1] ~= false then
  refilledAt = tonumber(bucket[1])
  tokens = tonumber(bucket[2])
end
if now >= refilledAt + interval then
  local refills = math.floor((now - refilledAt) / interval)
  tokens = math.min(limit, tokens + refills * refillRate)
  refilledAt = refilledAt + refills * interval
end
if rate > 0 and tokens < rate then
  return {0, tokens, limit, refilledAt + interval}
end

local remaining = tokens - rate
local expireAt = math.ceil((limit - remaining) / refillRate) * interval
redis.call("HSET", key, "refilledAt", refilledAt, "tokens", remaining)
if expireAt > 0 then
  redis.call("PEXPIRE", key, expireAt)
end
return {1, remaining, limit, refilledAt + interval}`);
