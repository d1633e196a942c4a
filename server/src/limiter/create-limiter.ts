// Builds one @upstash/ratelimit limiter per rule: fixed-window, sliding-window or token-bucket
// (refilling `refillRate` per window, holding at most `tokens`).
import { Ratelimit } from '@upstash/ratelimit';
import type { Limit } from '../config/rules';
import type { ScriptClient } from './script-client';

type Window = Parameters<typeof Ratelimit.fixedWindow>[1];

/** `redis`: an @upstash/redis client, or the plugin's script client over the same store (script-client.ts). */
export function createLimiter(limit: Limit, redis: ScriptClient, prefix: string): Ratelimit {
  const { algorithm, tokens, refillRate } = limit;
  const window = limit.window.upstash as Window;
  const limiter =
    algorithm === 'fixed-window'
      ? Ratelimit.fixedWindow(tokens, window)
      : algorithm === 'sliding-window'
        ? Ratelimit.slidingWindow(tokens, window)
        : Ratelimit.tokenBucket(refillRate, window, tokens);
  // The plugin keeps its own bounded block cache and its own timeout (see http/middleware.ts), and
  // records analytics itself once a request's verdict is known (http/decision-events.ts).
  return new Ratelimit({ redis, limiter, prefix, analytics: false, ephemeralCache: false, timeout: 0 });
}
