// Item 4: a refusal answered from the block cache must be one the algorithm itself would give. For
// random algorithms, limits, windows and request timings (a fake Date drives the limiter, the
// library and the memory engine's expiry alike), one limiter with the block cache and one without
// (every request asks the store) see the same requests at the same moments: their answers must be
// the same, request by request. Refusals change no counter the next answer depends on (sliding
// window and token bucket count nothing refused; a fixed window's counter is already past its limit),
// so the two stores stay in step for as long as the cache is exact.
import fc from 'fast-check';
import { limitedApp, storeForSuite, strategy } from './support';

const store = storeForSuite();
let clock = 0;
beforeAll(() => jest.spyOn(Date, 'now').mockImplementation(() => clock));
afterAll(() => jest.restoreAllMocks());

const limiterArbitrary = fc.oneof(
  fc.record({ algorithm: fc.constant('fixed-window' as const), tokens: fc.integer({ min: 1, max: 4 }), windowMs: fc.constantFrom(1000, 3000, 10_000) }),
  fc.record({ algorithm: fc.constant('sliding-window' as const), tokens: fc.integer({ min: 1, max: 6 }), windowMs: fc.constantFrom(1000, 3000, 10_000) }),
  fc.record({ algorithm: fc.constant('token-bucket' as const), tokens: fc.integer({ min: 1, max: 4 }), windowMs: fc.constantFrom(1000, 3000), refillRate: fc.integer({ min: 1, max: 3 }) }),
);

/** Gaps between requests: bursts, steps of up to a fifth of a window (where a sliding window reopens), and longer pauses. */
const gapsArbitrary = (windowMs: number) =>
  fc.array(fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: windowMs / 5 }), fc.integer({ min: 0, max: 2 * windowMs })), { minLength: 4, maxLength: 24 });

it('item 4: the block cache refuses exactly what fixed-window, sliding-window and token-bucket refuse, for random request timings', async () => {
  let answeredFromCache = 0;
  await fc.assert(
    fc.asyncProperty(
      limiterArbitrary.chain((limiter) => fc.tuple(fc.constant(limiter), fc.integer({ min: 0, max: limiter.windowMs - 1 }), gapsArbitrary(limiter.windowMs))),
      async ([{ windowMs, ...limiter }, startOffset, gaps]) => {
        const rule = strategy({ debug: true }, { ...limiter, window: `${windowMs}ms` });
        const base = { url: store.kv.url, token: store.kv.token, strategy: [rule] };
        const cached = limitedApp({ ...base, prefix: `cached${Math.random()}` });
        const uncached = limitedApp({ ...base, prefix: `uncached${Math.random()}`, blockedCacheSize: 0 });
        try {
          clock = 1_800_000_000_000 - (1_800_000_000_000 % windowMs) + startOffset;
          const withCache: number[] = [];
          const withoutCache: number[] = [];
          for (const gap of gaps) {
            clock += gap;
            withCache.push((await cached.request.get('/limited')).status);
            withoutCache.push((await uncached.request.get('/limited')).status);
          }
          answeredFromCache += cached.logs.info.filter((line) => line.endsWith('(from the block cache)')).length;
          expect(withCache).toEqual(withoutCache);
        } finally {
          cached.close();
          uncached.close();
        }
      },
    ),
    { numRuns: 80, endOnFailure: true },
  );
  // The comparison means something only if the cache answered some of those requests.
  expect(answeredFromCache).toBeGreaterThan(20);
}, 60_000);

it('item 4: a sliding window refused from the block cache admits again as soon as the weighted count allows, before its window ends', async () => {
  const rule = strategy({ debug: true }, { algorithm: 'sliding-window', tokens: 2, window: '1000ms' });
  const app = limitedApp({ url: store.kv.url, token: store.kv.token, strategy: [rule], prefix: `example${Math.random()}` });
  try {
    const statuses: number[] = [];
    // Two requests fill window 0. 100 ms into window 1 they weigh floor(0.9 * 2) = 1: one more fits,
    // then the count is 2 up to 500 ms (floor(0.5 * 2) = 1); from 501 ms the previous window weighs 0.
    for (const at of [0, 10, 1100, 1150, 1500, 1501]) {
      clock = 1_800_000_000_000 + at;
      statuses.push((await app.request.get('/limited')).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429, 200]);
    expect(app.logs.info.filter((line) => line.endsWith('(from the block cache)'))).toHaveLength(1);
  } finally {
    app.close();
  }
});
