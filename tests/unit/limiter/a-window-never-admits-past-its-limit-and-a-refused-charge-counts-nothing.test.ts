// Issue 35 (GraphQL charges above 1 token): the fixed and sliding windows against a reference model,
// over random sequences of requests (charges of 2 to more than the limit, requests of 1, refunds
// with negative rates), the clock moving within and across windows, and live limits written, changed
// and removed between requests, through the plugin's limiter on the embedded store (the production
// path: the plugin's script client, the memory engine's native scripts). Each answer (success,
// remaining, limit, reset) and the stored counters after it are the model's; and, stated apart: no
// request is admitted when it leaves its window counting past the limit, and a refused charge above
// 1 leaves every key of the store as it was. A request of 1 and a refund keep @upstash/ratelimit's
// own scripts, so the model keeps their rules: a fixed window's refusal of 1 still counts (the caller
// is past its limit anyway), and a refund is never refused by a sliding window.
import fc from 'fast-check';
import type { Algorithm } from '../../../server/src';
import { keyspace, replay, step, TOKENS, WINDOW_MS, type Answer } from './limiter-against-a-model';

/** What the algorithms decide, with every window's count (a missing one is 0). */
class ReferenceWindow {
  readonly counts = new Map<number, number>();
  live: number | null = null;

  constructor(private readonly sliding: boolean) {}

  /** The request's answer; counts what it takes. */
  request(rate: number, now: number): Answer {
    const limit = this.live ?? TOKENS;
    const window = Math.floor(now / WINDOW_MS);
    const reset = (window + 1) * WINDOW_MS;
    const current = this.counts.get(window) ?? 0;
    const previous = this.sliding ? Math.floor((1 - (now % WINDOW_MS) / WINDOW_MS) * (this.counts.get(window - 1) ?? 0)) : 0;
    const left = limit - (previous + current);
    const refused = rate > 1 ? left < rate : this.sliding && rate === 1 && left < 1;
    if (refused) return { success: false, remaining: Math.max(0, left), limit, reset };
    this.counts.set(window, current + rate);
    const after = limit - (previous + current + rate);
    return { success: after >= 0, remaining: Math.max(0, after), limit, reset };
  }

  /** The stored counts of the current window and, for a sliding window, the previous one (a fixed window reads only the first). */
  stored(now: number): number[] {
    const window = Math.floor(now / WINDOW_MS);
    return this.sliding ? [this.counts.get(window) ?? 0, this.counts.get(window - 1) ?? 0] : [this.counts.get(window) ?? 0];
  }
}

describe.each<Algorithm>(['fixed-window', 'sliding-window'])('the %s limiter', (algorithm) => {
  afterEach(() => jest.useRealTimers());

  it('answers and counts as the reference model, admits nothing past the limit and counts nothing for a refused charge', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 40 }), async (steps) => {
        const model = new ReferenceWindow(algorithm === 'sliding-window');
        await replay(
          algorithm,
          steps,
          (tokens) => (model.live = tokens),
          async (rate, { redis, rule, limiter, key }) => {
            const before = await keyspace(redis);
            const { success, remaining, limit, reset } = await limiter.limit(key, { rate });
            const expected = model.request(rate, Date.now());
            const now = Date.now();
            const stored = (await redis.mget<(number | null)[]>(...rule.keys.counterKeys('ALL', '192.0.2.1', now))).map((count) => count ?? 0);
            expect({ rate, answer: { success, remaining, limit, reset }, stored }).toEqual({ rate, answer: expected, stored: model.stored(now) });
            // Stated apart: an admitted request leaves its window counting at most the limit (the
            // previous window weighted as the sliding window weighs it); a refused charge changes no key.
            const [current, previous = 0] = stored;
            const counted = current + Math.floor((1 - (now % WINDOW_MS) / WINDOW_MS) * previous);
            if (success && rate > 0) expect({ counted, within: counted <= limit }).toEqual({ counted, within: true });
            if (!success && rate > 1) expect(await keyspace(redis)).toEqual(before);
          },
        );
      }),
      { numRuns: 100 },
    );
  });
});
