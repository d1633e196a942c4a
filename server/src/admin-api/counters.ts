// Reads the live counters of several callers of one rule in one round trip and turns them into
// used/remaining tokens and the reset time, computed the way @upstash/ratelimit's own scripts
// compute them, against each caller's limit (its tier's, docs/tiers.md, or the rule's effective limit:
// its live limit when one is stored). Which keys hold a counter is the rule's keys' to say
// (config/keys.ts). A caller at its limit is `blocked` only when it was refused before its reset:
// a fixed window counts refused requests, so a count past the limit says so for every instance; the
// other algorithms count none, so the caller's instance says it (usage-service.ts).
import type { Redis } from '@upstash/redis';
import type { Rule } from '../config/rules';
import type { CallerCounter } from './usage-types';

function toNumber(value: unknown): number {
  const number = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(number) ? number : 0;
}

function counter(identifier: string, method: string, limit: number, used: number, reset: number, refusedCounted = false): CallerCounter {
  const remaining = Math.max(0, limit - used);
  // A fixed window keeps counting refused requests; the view shows tokens, so used stops at the limit.
  return { identifier, method, used: Math.min(limit, Math.max(0, used)), remaining, limit, reset, blocked: remaining === 0 && refusedCounted };
}

/** A caller holding a counter on a rule: its identifier and the method in its keys. */
export interface FoundCaller {
  readonly identifier: string;
  readonly method: string;
}

/** The limit a caller's counter is read against: tokens, and for a token bucket its refill per window. */
export interface CounterLimit {
  readonly tokens: number;
  readonly refillRate: number;
}

export async function readCounters(redis: Redis, rule: Rule, callers: readonly FoundCaller[], now: number, limitOf: (identifier: string) => CounterLimit): Promise<CallerCounter[]> {
  if (callers.length === 0) return [];
  const { algorithm } = rule.limit;
  const windowMs = rule.limit.window.milliseconds;
  const windowEnd = (Math.floor(now / windowMs) + 1) * windowMs;
  const pipeline = redis.pipeline();
  for (const { identifier, method } of callers) {
    const keys = rule.keys.counterKeys(method, identifier, now);
    if (algorithm === 'token-bucket') pipeline.hmget(keys[0], 'refilledAt', 'tokens');
    else if (algorithm === 'fixed-window') pipeline.get(keys[0]);
    else pipeline.mget(...keys);
  }
  const replies = await pipeline.exec();
  return callers.map(({ identifier, method }, index) => {
    const reply = replies[index];
    const { tokens, refillRate } = limitOf(identifier);
    if (algorithm === 'fixed-window') return counter(identifier, method, tokens, toNumber(reply), windowEnd, toNumber(reply) > tokens);
    if (algorithm === 'sliding-window') {
      const [current, previous] = (reply as unknown[] | null) ?? [];
      const elapsed = (now % windowMs) / windowMs;
      const used = Math.floor((1 - elapsed) * toNumber(previous)) + toNumber(current);
      return counter(identifier, method, tokens, used, windowEnd);
    }
    const bucket = reply as { refilledAt?: unknown; tokens?: unknown } | null;
    if (!bucket || bucket.refilledAt === null || bucket.refilledAt === undefined) return counter(identifier, method, tokens, 0, now);
    const refilledAt = toNumber(bucket.refilledAt);
    const intervals = Math.max(0, Math.floor((now - refilledAt) / windowMs));
    const available = Math.min(tokens, toNumber(bucket.tokens) + intervals * refillRate);
    return counter(identifier, method, tokens, tokens - available, refilledAt + (intervals + 1) * windowMs);
  });
}
