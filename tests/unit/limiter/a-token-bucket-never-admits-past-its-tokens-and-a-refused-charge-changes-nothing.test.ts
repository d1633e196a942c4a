// Issue 35 (GraphQL charges above 1 token): the token bucket against a reference model, over random
// sequences of requests (charges of 2 to more than the bucket, requests of 1, refunds with negative
// rates), the clock moving within and across refill intervals, and live limits written, changed and
// removed between requests, through the plugin's limiter on the embedded store and through the
// memory limiter of failureMode 'local' (server/src/limiter/memory-limiter.ts), given the same limit.
// Each answer (success, remaining, limit, reset) and the stored bucket (its fields and its expiry)
// after it are the model's; and, stated apart: no request is admitted that takes more tokens than
// the bucket holds, and a refusal leaves every key of the store as it was. A charge above 1 runs the
// plugin's own script (shared/charge-scripts.ts), whose refusal answers the tokens left, where
// @upstash/ratelimit's answered -1 (remaining 0); requests of 1 and refunds keep the library's.
import fc from 'fast-check';
import { MemoryLimiter } from '../../../server/src/limiter/memory-limiter';
import { keyspace, replay, REFILL_RATE, step, TOKENS, WINDOW_MS, type Answer } from './limiter-against-a-model';

/**
 * The bucket as the algorithm describes it: it starts full; every whole interval since it was last
 * refilled adds REFILL_RATE tokens, up to the limit; a request takes its rate when the bucket holds at
 * least that many and otherwise changes nothing (a refund, a negative rate, is never refused). The
 * store drops the bucket once it would be full again (its expiry, set when tokens are taken), and a
 * later request starts a full one.
 */
class ReferenceBucket {
  live: number | null = null;
  bucket: { refilledAt: number; tokens: number; expiresAt: number } | undefined;

  request(rate: number, now: number): Answer {
    const limit = this.live ?? TOKENS;
    const kept = this.bucket && now < this.bucket.expiresAt ? this.bucket : undefined;
    let refilledAt = kept?.refilledAt ?? now;
    let tokens = kept?.tokens ?? limit;
    const refills = Math.floor((now - refilledAt) / WINDOW_MS);
    if (refills > 0) {
      tokens = Math.min(limit, tokens + refills * REFILL_RATE);
      refilledAt += refills * WINDOW_MS;
    }
    const reset = refilledAt + WINDOW_MS;
    if (rate > 0 && tokens < rate) return { success: false, remaining: tokens, limit, reset };
    const remaining = tokens - rate;
    const lifetime = Math.ceil((limit - remaining) / REFILL_RATE) * WINDOW_MS;
    this.bucket = { refilledAt, tokens: remaining, expiresAt: lifetime > 0 ? now + lifetime : (kept?.expiresAt ?? Infinity) };
    return { success: true, remaining, limit, reset };
  }

  /** The stored bucket at `now`: its fields and PTTL, as the store reads them back (none once expired). */
  stored(now: number): [Record<string, number>, number] | undefined {
    const { bucket } = this;
    if (!bucket || now >= bucket.expiresAt) return undefined;
    return [{ refilledAt: bucket.refilledAt, tokens: bucket.tokens }, bucket.expiresAt === Infinity ? -1 : bucket.expiresAt - now];
  }
}

describe('the token-bucket limiter', () => {
  afterEach(() => jest.useRealTimers());

  it('answers and stores as the reference model, admits nothing past the bucket and changes nothing on a refusal, in the store and in memory', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 40 }), async (steps) => {
        const model = new ReferenceBucket();
        let memory: MemoryLimiter | undefined;
        await replay(
          'token-bucket',
          steps,
          (tokens) => (model.live = tokens),
          async (rate, { redis, rule, limiter, key }) => {
            const before = await keyspace(redis);
            const now = Date.now();
            const { success, remaining, limit, reset } = await limiter.limit(key, { rate });
            const inMemory = (memory ??= new MemoryLimiter(rule.limit, 10)).limit(key, now, model.live ?? TOKENS, REFILL_RATE, rate);
            const expected = model.request(rate, now);
            const after = await keyspace(redis);
            const [bucketKey] = rule.keys.counterKeys('ALL', '192.0.2.1', now);
            const bucket = after.find(([name]) => name === bucketKey);
            const stored = bucket && [bucket[1], bucket[2]];
            expect({ rate, answer: { success, remaining, limit, reset }, inMemory, stored }).toEqual({ rate, answer: expected, inMemory: expected, stored: model.stored(now) });
            // Stated apart: an admitted request leaves the bucket holding no fewer than 0 tokens; a refusal changes no key.
            if (success && rate > 0) expect({ tokens: (bucket?.[1] as { tokens: number }).tokens >= 0 }).toEqual({ tokens: true });
            if (!success) expect(after).toEqual(before);
          },
        );
      }),
      { numRuns: 100 },
    );
  });
});
