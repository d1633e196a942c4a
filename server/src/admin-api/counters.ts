// Reads one caller's live counter for one strategy and turns it into used/remaining tokens and the
// reset time, computed the way @upstash/ratelimit's own scripts compute them.
import type { Redis } from '@upstash/redis';
import { parseDuration } from '../config/duration';
import type { StrategyConfig } from '../config/schema';
import type { CallerCounter } from './usage-types';

function toNumber(value: unknown): number {
  const number = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(number) ? number : 0;
}

export function windowMilliseconds(strategy: StrategyConfig): number {
  // The config schema has already refused windows that do not parse.
  return parseDuration(strategy.limiter.window)!.milliseconds;
}

function counter(identifier: string, method: string, limit: number, used: number, reset: number): CallerCounter {
  const remaining = Math.max(0, limit - used);
  // A fixed window keeps counting refused requests; the view shows tokens, so used stops at the limit.
  return { identifier, method, used: Math.min(limit, Math.max(0, used)), remaining, limit, reset, blocked: remaining === 0 };
}

/** A caller holding a counter: its identifier and method, and its key before any window number. */
export interface FoundCaller {
  readonly identifier: string;
  readonly method: string;
  readonly key: string;
}

/** Reads the counters of several callers in one round trip. */
export async function readCounters(redis: Redis, strategy: StrategyConfig, callers: readonly FoundCaller[], now: number): Promise<CallerCounter[]> {
  if (callers.length === 0) return [];
  const { algorithm, tokens } = strategy.limiter;
  const windowMs = windowMilliseconds(strategy);
  const windowIndex = Math.floor(now / windowMs);
  const windowEnd = (windowIndex + 1) * windowMs;
  const pipeline = redis.pipeline();
  for (const { key } of callers) {
    if (algorithm === 'token-bucket') pipeline.hmget(key, 'refilledAt', 'tokens');
    else if (algorithm === 'fixed-window') pipeline.get(`${key}:${windowIndex}`);
    else pipeline.mget(`${key}:${windowIndex}`, `${key}:${windowIndex - 1}`);
  }
  const replies = await pipeline.exec();
  return callers.map(({ identifier, method }, index) => {
    const reply = replies[index];
    if (algorithm === 'fixed-window') return counter(identifier, method, tokens, toNumber(reply), windowEnd);
    if (algorithm === 'sliding-window') {
      const [current, previous] = (reply as unknown[] | null) ?? [];
      const elapsed = (now % windowMs) / windowMs;
      const used = Math.floor((1 - elapsed) * toNumber(previous)) + toNumber(current);
      return counter(identifier, method, tokens, used, windowEnd);
    }
    const bucket = reply as { refilledAt?: unknown; tokens?: unknown } | null;
    if (!bucket || bucket.refilledAt === null || bucket.refilledAt === undefined) return counter(identifier, method, tokens, 0, now);
    const refillRate = strategy.limiter.refillRate ?? tokens;
    const refilledAt = toNumber(bucket.refilledAt);
    const intervals = Math.max(0, Math.floor((now - refilledAt) / windowMs));
    const available = Math.min(tokens, toNumber(bucket.tokens) + intervals * refillRate);
    return counter(identifier, method, tokens, tokens - available, refilledAt + (intervals + 1) * windowMs);
  });
}
