// How long a refusal may be answered from the block cache: until the moment the algorithm could
// admit the caller again, never later (a cache must not refuse what the algorithm would allow).
// fixed-window: the window's end, the `reset` @upstash/ratelimit returns. token-bucket: the next
// refill, also its `reset` (a refused bucket holds no whole token, and a refill adds at least one).
// sliding-window: its `reset` is the current window's end, which can be long after the weighted count
// admits again (or before, when this window alone is full), so the two windows' counters are read
// (one MGET of the library's keys, `<prefix>:<limiter key>:<window number>`) and the moment computed
// as the script would decide it (sliding-window-reopening.ts). A failed read caches nothing.
import type { Redis } from '@upstash/redis';
import { parseDuration } from '../config/duration';
import type { StrategyConfig } from '../config/schema';
import { slidingWindowReopensAt } from './sliding-window-reopening';

/** The moment (ms epoch) a refused caller could be admitted again, or undefined when it is not known. */
export type Reopening = (limiterKey: string, reset: number) => Promise<number | undefined>;

const counter = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));

export function compileReopening(strategy: StrategyConfig, redis: Redis, prefix: string): Reopening {
  if (strategy.limiter.algorithm !== 'sliding-window') return (_limiterKey, reset) => Promise.resolve(reset);
  // The config schema has already refused windows that do not parse.
  const windowMs = parseDuration(strategy.limiter.window)!.milliseconds;
  const limit = strategy.limiter.tokens;
  return async (limiterKey) => {
    const now = Date.now();
    const window = Math.floor(now / windowMs);
    try {
      const [current, previous] = await redis.mget<unknown[]>(`${prefix}:${limiterKey}:${window}`, `${prefix}:${limiterKey}:${window - 1}`);
      return slidingWindowReopensAt(counter(previous), counter(current), now, windowMs, limit);
    } catch {
      return undefined;
    }
  };
}
