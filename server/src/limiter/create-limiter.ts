// Builds one @upstash/ratelimit limiter per rule (and per tier of a rule): fixed-window, sliding-window or token-bucket
// (refilling `refillRate` per window, holding at most `tokens`), reading the rule's live limit, when
// one is stored, in the same script call (live-limit-scope.ts), and counting through the library's
// algorithm without the library's per-call wrapping (DirectRatelimit below). A check charged more
// than 1 token runs the plugin's own exact script for the algorithm instead (charges.ts).
import { Ratelimit } from '@upstash/ratelimit';
import type { Rule } from '../config/rules';
import { contextPerSlot, readLiveLimitAt, type ContextOf } from './live-limit-scope';
import type { LibraryScriptClient } from '../store/script-client';
import { chargeOf, type Charge, type ChargeContext } from './charges';

type Window = Parameters<typeof Ratelimit.fixedWindow>[1];
type LimitResponse = Awaited<ReturnType<Ratelimit['limit']>>;

/**
 * The library's limiter, counting through its algorithm directly. The library's own `limit` wraps
 * the algorithm in steps that do nothing under this plugin's options (no analytics, no timeout race,
 * no deny-list protection: a deny-list cache lookup, a Promise.all and a Promise.race, three async
 * layers) and builds the algorithm's functions anew on every call: 1.0 to 1.7 µs per strategy and
 * request of the 4 to 6 the whole call costs on the embedded store (CPU time, minimum of 6 runs of
 * 200,000 calls). The algorithm, its context (store client, live-limit key, dynamic limits) and the
 * prefix are the library's own members, and the key is spelled as its (private) `getKey` spells it,
 * `<prefix>:<identifier>`: tests/unit/limiter/live-limit-key-reaches-the-library-scripts.test.ts
 * asserts every key the scripts receive, so an upgrade that changes any of this fails loudly.
 */
class DirectRatelimit extends Ratelimit {
  private readonly algorithm = this.limiter();
  /** The context a key is counted in (live-limit-scope.ts: one per slot on a Redis Cluster). */
  contextOf: ContextOf = () => this.ctx as unknown as ReturnType<ContextOf>;

  constructor(
    config: ConstructorParameters<typeof Ratelimit>[0],
    /** The check of more than 1 token (charges.ts). */
    private readonly charge: Charge,
  ) {
    super(config);
  }

  override limit = (identifier: string, options?: { rate?: number }): Promise<LimitResponse> => {
    const key = `${this.prefix}:${identifier}`;
    const context = this.contextOf(key);
    const rate = options?.rate;
    if (rate !== undefined && rate > 1) return this.charge(context as unknown as ChargeContext, key, rate);
    return this.algorithm.limit(context as unknown as DirectRatelimit['ctx'], key, rate);
  };
}

/** The library's algorithm for a rule's limit. */
export function algorithmOf(limit: Rule['limit']): ReturnType<typeof Ratelimit.fixedWindow> {
  const { algorithm, tokens, refillRate } = limit;
  const window = limit.window.upstash as Window;
  if (algorithm === 'fixed-window') return Ratelimit.fixedWindow(tokens, window);
  if (algorithm === 'sliding-window') return Ratelimit.slidingWindow(tokens, window);
  return Ratelimit.tokenBucket(refillRate, window, tokens);
}

/**
 * The limiter of a rule: counting under the rule's prefix and, when `live`, reading the rule's live
 * limit. A tier's limiter (docs/tiers.md) counts the same keys with its own tokens and reads no live
 * limit: the live limit replaces the strategy's own tokens only. `redis`: an @upstash/redis client,
 * or the plugin's script client over the same store (script-client.ts).
 */
export function createLimiter(rule: Pick<Rule, 'limit' | 'keys'>, redis: LibraryScriptClient, live = true): Ratelimit {
  const { keys } = rule;
  // The plugin keeps its own bounded block cache and its own timeout (see http/middleware.ts), and
  // records analytics itself once a request's verdict is known (http/decision-events.ts).
  const ratelimit = new DirectRatelimit({ redis, limiter: algorithmOf(rule.limit), prefix: keys.prefix, analytics: false, ephemeralCache: false, timeout: 0, dynamicLimits: live }, chargeOf(rule.limit));
  if (!live) return ratelimit;
  readLiveLimitAt(ratelimit, keys.liveLimitScope());
  if (keys.placement === 'slotted') ratelimit.contextOf = contextPerSlot(ratelimit, keys.liveLimitScope());
  return ratelimit;
}
