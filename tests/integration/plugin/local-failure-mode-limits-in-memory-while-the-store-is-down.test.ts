// Item 6: `failureMode: 'local'` keeps limiting while the store is away: each instance counts in
// memory with the same strategies (an insurance limiter), where 'open' lets everything through; and
// the in-memory arithmetic is the library's own, proved against @upstash/ratelimit on the memory
// engine for random algorithms, request timings and live limits.
import fc from 'fast-check';
import { parseConfig } from '../../../server/src/config/parse-config';
import { compileConfig } from '../../../server/src/config/rules';
import { liveLimitKey } from '../../../server/src/limiter/live-limit-scope';
import { MemoryLimiter } from '../../../server/src/limiter/memory-limiter';
import { limitedApp, startKvRestServer, statuses, storeForSuite, strategy } from './support';

describe('a store that goes down mid-test', () => {
  it.each([
    ['local', [200, 200, 429, 429]],
    ['open', [200, 200, 200, 200]],
  ])('item 6: failureMode %s answers %j once the store is gone', async (failureMode, expected) => {
    const kv = await startKvRestServer();
    const app = limitedApp({ url: kv.url, token: kv.token, failureMode, strategy: [strategy({ debug: true }, { tokens: 2 })] });
    try {
      expect((await app.request.get('/limited')).status).toBe(200);
      await kv.close();
      expect(await statuses(() => app.request.get('/limited'), 4)).toEqual(expected);
      if (failureMode === 'local') {
        expect(app.logs.warn).toEqual([expect.stringMatching(/^\[ratelimit\] the key-value store failed \(.*\); limiting each instance in memory until it answers again/)]);
        expect(app.logs.info.slice(1).every((line) => line.endsWith('(in memory: the store is away)'))).toBe(true);
      }
    } finally {
      app.close();
    }
  });
});

describe('the in-memory limiter', () => {
  const store = storeForSuite();
  let clock = 0;
  beforeAll(() => jest.spyOn(Date, 'now').mockImplementation(() => clock));
  afterAll(() => jest.restoreAllMocks());

  it('item 6: admits exactly what @upstash/ratelimit admits, for every algorithm, random request timings and a live limit or none', async () => {
    const limiters = fc.oneof(
      fc.record({ algorithm: fc.constantFrom('fixed-window' as const, 'sliding-window' as const), tokens: fc.integer({ min: 1, max: 5 }), windowMs: fc.constantFrom(1000, 3000) }),
      fc.record({ algorithm: fc.constant('token-bucket' as const), tokens: fc.integer({ min: 1, max: 4 }), windowMs: fc.constantFrom(1000, 3000), refillRate: fc.integer({ min: 1, max: 3 }) }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }),
        limiters.chain((limiter) => fc.tuple(fc.constant(limiter), fc.array(fc.oneof(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: limiter.windowMs / 4 }), fc.integer({ min: 0, max: 2 * limiter.windowMs })), { minLength: 3, maxLength: 20 }))),
        async (live, [{ windowMs, ...limiter }, gaps]) => {
          const config = { url: store.kv.url, token: store.kv.token, prefix: `memory${Math.random()}`, blockedCacheSize: 0, strategy: [strategy({}, { ...limiter, window: `${windowMs}ms` })] };
          const app = limitedApp(config);
          const rule = compileConfig(parseConfig(config)).rules[0];
          const memory = new MemoryLimiter(rule.limit, 10);
          // The middleware hands the memory limiter the last limit the store applied: the live one when stored.
          if (live !== undefined) await store.redis.set(liveLimitKey(rule.keys.liveLimitScope()), live);
          try {
            clock = 1_800_000_000_000;
            const fromStore: boolean[] = [];
            const fromMemory: boolean[] = [];
            for (const gap of gaps) {
              clock += gap;
              fromStore.push((await app.request.get('/limited')).status === 200);
              fromMemory.push(memory.limit('caller', clock, live ?? limiter.tokens).success);
            }
            expect(fromMemory).toEqual(fromStore);
          } finally {
            app.close();
          }
        },
      ),
      { numRuns: 40, endOnFailure: true },
    );
  }, 60_000);
});
