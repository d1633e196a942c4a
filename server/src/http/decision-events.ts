// With `analytics: true`, the events that @upstash/ratelimit's Analytics keeps and the admin page
// charts: one per strategy that counted a request, under that strategy's limiter key. A strategy
// counts a request it admitted (it spent a token on it) and a request it refused, from the store or
// from the block cache (where only the strategy that blocks longest is asked). A strategy that
// admitted a request another one refused counted nothing, since its token was given back
// (limiter/token-refunds.ts), so it records nothing either; and decisions made in memory while the
// store is away (failureMode 'local') are not recorded in the store that is away. So a request that
// three strategies admit is three allowed events, one that the block cache refuses one blocked event.
// The limiters themselves record nothing (limiter/create-limiter.ts): this is the one place.
import { Analytics } from '@upstash/ratelimit';
import type { Redis } from '@upstash/redis';

/** One strategy's verdict on a request. */
export interface Decision {
  readonly check: { readonly limiterKey: string };
  readonly success: boolean;
  readonly from: 'store' | 'block cache' | 'memory';
}

export class DecisionEvents {
  private readonly analytics: Analytics;

  constructor(redis: Redis, prefix: string) {
    this.analytics = new Analytics({ redis, prefix });
  }

  /** Records a request's decisions once its verdict is known; resolves when written (the middleware does not wait), failures ignored. */
  async record(decisions: readonly Decision[], admitted: boolean, time: number): Promise<void> {
    const recorded = decisions.filter(({ success, from }) => from !== 'memory' && (admitted || !success));
    await Promise.all(recorded.map(({ check, success }) => this.analytics.record({ identifier: check.limiterKey, time, success }).catch(() => undefined)));
  }
}
