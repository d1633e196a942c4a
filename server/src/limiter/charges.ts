// A check of a request charged more than 1 token (a GraphQL request's count or cost,
// docs/graphql.md), on the plugin's own scripts (shared/charge-scripts.ts), one per algorithm: the
// request is taken whole or refused changing nothing, and the answer's `remaining` is what the caller
// really has left, refused or not, so a client can size a smaller request. @upstash/ratelimit's
// scripts are not exact for such a charge: its windows count a refused request's tokens, and all
// three answer a refusal with 0 left (see that file).
// A request of 1 and a refund (a negative rate) stay on the library's scripts, the measured hot path.
// The KEYS and ARGV are spelled exactly as the library's algorithm spells them for the same call
// (node_modules/@upstash/ratelimit/dist/index.js, RegionRatelimit.fixedWindow / slidingWindow /
// tokenBucket): `<key>:<window number>` (and the previous window's), or the bucket's `<key>`, then
// the live-limit key of the call's context (live-limit-scope.ts: on a Redis Cluster, the copy in the
// counters' slot), so both count the same keys in one slot;
// tests/unit/limiter/a-costly-check-counts-the-library-s-keys.test.ts asserts it.
import type { Ratelimit } from '@upstash/ratelimit';
import { FIXED_WINDOW_CHARGE, SLIDING_WINDOW_CHARGE, TOKEN_BUCKET_CHARGE } from '../../../shared/charge-scripts';
import type { Rule } from '../config/rules';
import { runOnLibraryClient, type LibraryScriptClient } from '../store/script-client';
import { liveLimitKey } from './live-limit-scope';

type LimitResponse = Awaited<ReturnType<Ratelimit['limit']>>;

/** What of the library's per-call context a charge reads: the store client, and where its live limit is, if it reads one. */
export interface ChargeContext {
  readonly redis: LibraryScriptClient;
  readonly prefix: string;
  readonly dynamicLimits?: boolean;
}

/** Counts `rate` (> 1) tokens for the limiter key `key` (`<prefix>:<identifier>`), or refuses them all. */
export type Charge = (context: ChargeContext, key: string, rate: number) => Promise<LimitResponse>;

const SETTLED: Promise<void> = Promise.resolve();

/** The live-limit key of the call's context, when its limiter reads one. */
const liveKeys = (context: ChargeContext): string[] => (context.dynamicLimits ? [liveLimitKey(context.prefix)] : []);

/** The charge of a rule's limit. */
export function chargeOf(limit: Rule['limit']): Charge {
  return limit.algorithm === 'token-bucket' ? bucketCharge(limit) : windowCharge(limit);
}

/** A fixed or sliding window: the reset is the window's end, as the library computes it. */
function windowCharge(limit: Rule['limit']): Charge {
  const { tokens } = limit;
  const windowMs = limit.window.milliseconds;
  const sliding = limit.algorithm === 'sliding-window';
  const script = sliding ? SLIDING_WINDOW_CHARGE : FIXED_WINDOW_CHARGE;
  return async (context, key, rate) => {
    const now = Date.now();
    const window = Math.floor(now / windowMs);
    const keys = sliding ? [`${key}:${window}`, `${key}:${window - 1}`, ...liveKeys(context)] : [`${key}:${window}`, ...liveKeys(context)];
    const args = sliding ? [tokens, now, windowMs, rate] : [tokens, windowMs, rate];
    // The answer's limit is checked where the library's is (middleware.ts: a foreign live value is no verdict).
    const [counted, remaining, effectiveLimit] = (await runOnLibraryClient(context.redis, script, keys, args)) as [number, number, number];
    return { success: counted === 1, limit: effectiveLimit, remaining: Math.max(0, remaining), reset: (window + 1) * windowMs, pending: SETTLED };
  };
}

/** A token bucket (`tokens` at most, `refillRate` per window): the reset is the bucket's next refill, which the script answers. */
function bucketCharge(limit: Rule['limit']): Charge {
  const { tokens, refillRate } = limit;
  const intervalMs = limit.window.milliseconds;
  return async (context, key, rate) => {
    const args = [tokens, intervalMs, refillRate, Date.now(), rate];
    const [taken, remaining, effectiveLimit, reset] = (await runOnLibraryClient(context.redis, TOKEN_BUCKET_CHARGE, [key, ...liveKeys(context)], args)) as [number, number, number, number];
    return { success: taken === 1, limit: effectiveLimit, remaining: Math.max(0, remaining), reset, pending: SETTLED };
  };
}
