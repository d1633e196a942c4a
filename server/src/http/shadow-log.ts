// The log lines of shadow strategies: each would-be refusal is logged at info level (visible with
// Strapi's default logger settings) as
//   [ratelimit] shadow: would block GET /api/articles for 203.0.113.7 (strategy 1, GET /api/*, 100 per 1m, resets in 42s)
// at most once per caller per strategy per window: a caller past a shadow limit would otherwise
// write a line per request, which is the flood shadow mode is meant to measure, not to repeat.
// A strategy with `debug` on logs every one. Who was logged is remembered until the window's reset,
// in a bounded map, so a flood of distinct callers costs memory up to the bound and no more.
import { BoundedExpiringMap } from '../limiter/bounded-expiring-map';
import type { Rule } from '../config/rules';

/** Callers remembered as already logged, across all shadow strategies. */
const LOGGED_CALLERS_CAPACITY = 10_000;

/** A shadow strategy's refusal that was not enforced. */
export interface WouldBeRefusal {
  readonly check: { readonly rule: Rule; readonly limiterKey: string; readonly method: string; readonly caller: string };
  /** When the caller's window resets (ms epoch). */
  readonly reset: number;
}

export class ShadowLog {
  /** `<strategy index>\n<limiter key>` -> the reset it was logged for. */
  private readonly logged = new BoundedExpiringMap<true>(LOGGED_CALLERS_CAPACITY);

  constructor(private readonly logger: { info(message: string): void }) {}

  wouldBlock(requestMethod: string, requestPath: string, refusal: WouldBeRefusal, now: number): void {
    const { rule, limiterKey, method, caller } = refusal.check;
    const key = `${rule.index}\n${limiterKey}`;
    if (!rule.debug && this.logged.get(key, now)) return;
    // A reset already past (a store clock ahead of ours) still holds the line back for a second.
    this.logged.set(key, true, Math.max(refusal.reset, now + 1000));
    const { tokens, window } = rule.strategy.limiter;
    const resetsIn = Math.max(0, Math.ceil((refusal.reset - now) / 1000));
    this.logger.info(
      `[ratelimit] shadow: would block ${requestMethod} ${requestPath} for ${caller} (strategy ${rule.index}, ${method} ${rule.route}, ${tokens} per ${window}, resets in ${resetsIn}s)`,
    );
  }
}
