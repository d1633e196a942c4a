// With `analytics: true`, the events that @upstash/ratelimit's Analytics keeps and the admin page
// charts: one per enforcing strategy that counted a request, under that strategy's limiter key. A
// strategy counts a request it admitted (it spent a token on it) and a request it refused, from the
// store or from the block cache (where only the strategy that blocks longest is asked). A strategy
// that admitted a request another one refused counted nothing, since its token was given back
// (limiter/token-refunds.ts), so it records nothing either; and decisions made in memory while the
// store is away (failureMode 'local') are not recorded in the store that is away. So a request that
// three strategies admit is three allowed events, one that the block cache refuses one blocked event.
// Shadow strategies decide nothing, so they stay out of that series: their would-be refusals are a
// series of their own (config/keys.ts, shadowSeriesPrefix), one blocked event per would-be refusal under the strategy's
// shape (`<method>:<route>:<limiter>`, no caller), so the usage report reads a bounded number of
// totals per strategy (admin-api/analytics.ts); who was refused is in the shadow log lines.
// A request refused by the deny list is one `denied` event under the member that matched (the
// chart counts it as blocked), whatever its strategies admitted: their tokens were given back.
// A GraphQL request costing more than a strategy's whole budget is a blocked event of that strategy
// whatever the store said of the 1 token it took (graphql-endpoint.ts): the plugin refused it.
// The limiters themselves record nothing (limiter/create-limiter.ts): this is the one place.
import { Analytics } from '@upstash/ratelimit';
import type { Redis } from '@upstash/redis';
import { shadowSeriesPrefix } from '../config/keys';
import type { Rule } from '../config/rules';
import type { TooCostly } from './request-checks';

/** One strategy's verdict on a request. */
export interface Decision {
  readonly check: { readonly limiterKey: string; readonly method: string; readonly rule: Rule; readonly tooCostly?: TooCostly };
  readonly success: boolean;
  readonly from: 'store' | 'block cache' | 'memory';
}

export class DecisionEvents {
  private readonly analytics: Analytics;
  private readonly shadowAnalytics: Analytics;

  constructor(redis: Redis, prefix: string) {
    this.analytics = new Analytics({ redis, prefix });
    this.shadowAnalytics = new Analytics({ redis, prefix: shadowSeriesPrefix(prefix) });
  }

  /** Records a request's decisions once its verdict is known (`kept`: no strategy refused it, so each keeps its tokens); resolves when written (the middleware does not wait), failures ignored. */
  async record(decisions: readonly Decision[], kept: boolean, time: number): Promise<void> {
    const writes: Array<Promise<unknown>> = [];
    for (const { check, success, from } of decisions) {
      if (from === 'memory') continue;
      if (check.rule.mode === 'shadow') {
        if (!success) writes.push(this.shadowAnalytics.record({ identifier: check.rule.keys.shape(check.method), time, success: false }));
        continue;
      }
      const refused = !success || check.tooCostly !== undefined;
      if (kept || refused) writes.push(this.analytics.record({ identifier: check.limiterKey, time, success: !refused }));
    }
    await Promise.all(writes.map((write) => write.catch(() => undefined)));
  }

  /** Records a denied request; resolves when written (the middleware does not wait), failures ignored. */
  async recordDenied(member: string, time: number): Promise<void> {
    await this.analytics.record({ identifier: member, time, success: 'denied' }).catch(() => undefined);
  }
}
