// Builds one @upstash/ratelimit limiter per rule: fixed-window, sliding-window or token-bucket
// (refilling `refillRate` per window, holding at most `tokens`), reading the rule's live limit, when
// one is stored, in the same script call (live-limit-scope.ts).
import { Ratelimit } from '@upstash/ratelimit';
import type { Rule } from '../config/rules';
import { readLiveLimitAt } from './live-limit-scope';
import type { LibraryScriptClient } from './script-client';

type Window = Parameters<typeof Ratelimit.fixedWindow>[1];

/**
 * The limiter of a rule: counting under the rule's prefix, reading the rule's live limit. `redis`: an
 * @upstash/redis client, or the plugin's script client over the same store (script-client.ts).
 */
export function createLimiter(rule: Pick<Rule, 'limit' | 'keys'>, redis: LibraryScriptClient): Ratelimit {
  const { limit, keys } = rule;
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
  const ratelimit = new Ratelimit({ redis, limiter, prefix: keys.prefix, analytics: false, ephemeralCache: false, timeout: 0, dynamicLimits: true });
  return readLiveLimitAt(ratelimit, keys.liveLimitScope());
}
