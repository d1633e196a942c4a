// Builds one @upstash/ratelimit limiter per strategy: fixed-window, sliding-window or token-bucket
// (refilling `refillRate ?? tokens` per window, holding at most `tokens`).
import { Ratelimit } from '@upstash/ratelimit';
import type { Redis } from '@upstash/redis';
import { parseDuration } from '../config/duration';
import type { StrategyConfig } from '../config/schema';

type Window = Parameters<typeof Ratelimit.fixedWindow>[1];

export function createLimiter(strategy: StrategyConfig, redis: Redis, options: { prefix: string; analytics: boolean }): Ratelimit {
  const { algorithm, tokens, refillRate } = strategy.limiter;
  // The schema has already refused windows that do not parse.
  const window = parseDuration(strategy.limiter.window)!.upstash as Window;
  const limiter =
    algorithm === 'fixed-window'
      ? Ratelimit.fixedWindow(tokens, window)
      : algorithm === 'sliding-window'
        ? Ratelimit.slidingWindow(tokens, window)
        : Ratelimit.tokenBucket(refillRate ?? tokens, window, tokens);
  // The plugin keeps its own bounded block cache and its own timeout (see http/middleware.ts).
  return new Ratelimit({ redis, limiter, prefix: options.prefix, analytics: options.analytics, ephemeralCache: false, timeout: 0 });
}
