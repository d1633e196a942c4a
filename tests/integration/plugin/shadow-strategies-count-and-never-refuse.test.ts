// Shadow mode through plain Koa on the real embedded store (server/src/http/shadow-log.ts and
// middleware.ts): a shadow strategy counts exactly as an enforcing one (same counters, same round
// trip, the same refund when another strategy refuses), never refuses, is never remembered as
// blocked, sends no rate-limit headers and logs each would-be refusal once per caller per window
// (every one with debug).
import { parseConfig } from '../../../server/src/config/parse-config';
import { compileConfig } from '../../../server/src/config/rules';
import fc from 'fast-check';
import { closedPortUrl } from '../../fixtures/ports';
import { fakeDateOnly } from '../../support/fake-date';
import { startStoreProxy } from './store-proxy';
import { limitedApp, statuses, storeForSuite, strategy } from './support';

const store = storeForSuite();
afterEach(() => jest.useRealTimers());

const RATE_LIMIT_HEADERS = ['ratelimit', 'ratelimit-policy', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'];
const rateLimitHeadersOf = (headers: Record<string, unknown>): string[] => RATE_LIMIT_HEADERS.filter((name) => name in headers);
const shadowLines = (lines: readonly string[]): string[] => lines.filter((line) => line.startsWith('[ratelimit] shadow:'));

/** What the store holds for one caller of strategy `index`: the counters its algorithm keeps (a bucket's token count). */
async function countersOf(config: Record<string, unknown>, index: number, caller: string): Promise<unknown[]> {
  const rule = compileConfig(parseConfig({ url: store.kv.url, token: store.kv.token, ...config })).rules[index];
  const keys = rule.keys.counterKeys('GET', caller, Date.now());
  if (rule.limit.algorithm === 'token-bucket') return Promise.all(keys.map((key) => store.redis.hget(key, 'tokens')));
  return Promise.all(keys.map((key) => store.redis.get(key)));
}

describe('shadow mode', () => {
  it('a shadow strategy never refuses and leaves the same counters in the store as the same strategy enforcing, for every algorithm and limit', async () => {
    const limiters = fc.oneof(
      fc.record({ algorithm: fc.constantFrom('fixed-window' as const, 'sliding-window' as const), tokens: fc.integer({ min: 1, max: 4 }) }),
      fc.record({ algorithm: fc.constant('token-bucket' as const), tokens: fc.integer({ min: 1, max: 4 }), refillRate: fc.integer({ min: 1, max: 3 }) }),
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(limiters, fc.integer({ min: 1, max: 8 }), async (limiter, requests) => {
        run += 1;
        const limited = strategy({}, { ...limiter, window: '1h' });
        // No block cache on the enforcing side, so both send every request to the store.
        const enforcing = { prefix: `shadow-equal-${run}-enforce`, blockedCacheSize: 0, strategy: [limited] };
        const shadow = { prefix: `shadow-equal-${run}-shadow`, strategy: [{ ...limited, mode: 'shadow' as const }] };
        const enforcingApp = limitedApp({ url: store.kv.url, token: store.kv.token, ...enforcing });
        const shadowApp = limitedApp({ url: store.kv.url, token: store.kv.token, ...shadow });
        try {
          await statuses(() => enforcingApp.request.get('/limited'), requests);
          expect(await statuses(() => shadowApp.request.get('/limited'), requests)).toEqual(Array.from({ length: requests }, () => 200));
          const enforced = await countersOf(enforcing, 0, '127.0.0.1');
          expect(enforced[0]).not.toBeNull();
          expect(await countersOf(shadow, 0, '127.0.0.1')).toEqual(enforced);
        } finally {
          enforcingApp.close();
          shadowApp.close();
        }
      }),
      { numRuns: 15, endOnFailure: true },
    );
  });

  it('counts a shadow strategy in the same store round trip as the enforcing one, and a would-be refusal costs no extra trip', async () => {
    const proxy = await startStoreProxy(store.kv.url);
    const app = limitedApp({
      url: proxy.url,
      token: store.kv.token,
      prefix: 'shadow-trips',
      strategy: [strategy({}, { algorithm: 'sliding-window', tokens: 10 }), strategy({ mode: 'shadow' }, { algorithm: 'sliding-window', tokens: 1, window: '2h' })],
    });
    try {
      // The first request also loads the scripts (EVALSHA, NOSCRIPT, then EVAL): two trips at most.
      expect((await app.request.get('/limited')).status).toBe(200);
      const afterFirst = proxy.count();
      expect(afterFirst).toBeLessThanOrEqual(2);
      expect(await statuses(() => app.request.get('/limited'), 3)).toEqual([200, 200, 200]);
      expect(proxy.count() - afterFirst).toBe(3);
    } finally {
      app.close();
      await proxy.close();
    }
  });

  it('a request covered only by shadow strategies gets no rate-limit header, before or past the limit', async () => {
    const app = limitedApp({ url: store.kv.url, token: store.kv.token, prefix: 'shadow-headers', headers: 'both', strategy: [strategy({ mode: 'shadow' }, { tokens: 1 })] });
    try {
      const responses = [await app.request.get('/limited'), await app.request.get('/limited')];
      expect(responses.map((response) => [response.status, rateLimitHeadersOf(response.headers)])).toEqual([
        [200, []],
        [200, []],
      ]);
    } finally {
      app.close();
    }
  });

  it('the top-level mode shadow makes every strategy without a mode a shadow one', async () => {
    const app = limitedApp({ url: store.kv.url, token: store.kv.token, prefix: 'shadow-top-level', mode: 'shadow', strategy: [strategy({}, { tokens: 1 })] });
    try {
      expect(await statuses(() => app.request.get('/limited'), 3)).toEqual([200, 200, 200]);
      expect(shadowLines(app.logs.info)).toHaveLength(1);
    } finally {
      app.close();
    }
  });

  it("logs a would-be refusal once per caller per window, again in the next window, and each caller's own", async () => {
    fakeDateOnly();
    jest.setSystemTime(Math.ceil(Date.now() / 60_000) * 60_000);
    const app = limitedApp({ url: store.kv.url, token: store.kv.token, prefix: 'shadow-log-once', strategy: [strategy({ mode: 'shadow' }, { tokens: 1, window: '1m' })] }, { proxy: true });
    try {
      const from = (ip: string) => () => app.request.get('/limited').set('X-Forwarded-For', ip);
      expect(await statuses(from('203.0.113.7'), 4)).toEqual([200, 200, 200, 200]);
      expect(await statuses(from('203.0.113.8'), 2)).toEqual([200, 200]);
      jest.setSystemTime(Date.now() + 60_000);
      expect(await statuses(from('203.0.113.7'), 3)).toEqual([200, 200, 200]);
      expect(shadowLines(app.logs.info)).toEqual([
        '[ratelimit] shadow: would block GET /limited for 203.0.113.7 (strategy 0, GET /limited, 1 per 1m, resets in 60s)',
        '[ratelimit] shadow: would block GET /limited for 203.0.113.8 (strategy 0, GET /limited, 1 per 1m, resets in 60s)',
        '[ratelimit] shadow: would block GET /limited for 203.0.113.7 (strategy 0, GET /limited, 1 per 1m, resets in 60s)',
      ]);
    } finally {
      app.close();
    }
  });

  it('logs every would-be refusal of a shadow strategy with debug on', async () => {
    const app = limitedApp({ url: store.kv.url, token: store.kv.token, prefix: 'shadow-log-debug', strategy: [strategy({ mode: 'shadow', debug: true }, { tokens: 1 })] });
    try {
      expect(await statuses(() => app.request.get('/limited'), 4)).toEqual([200, 200, 200, 200]);
      expect(shadowLines(app.logs.info)).toHaveLength(3);
      expect(app.logs.info.filter((line) => line.includes('would be blocked (shadow)'))).toHaveLength(3);
    } finally {
      app.close();
    }
  });

  it('on a route with an enforcing and a shadow strategy, the enforcing one refuses and sets the headers, and the shadow one still counts the refused request', async () => {
    const app = limitedApp({
      url: store.kv.url,
      token: store.kv.token,
      prefix: 'shadow-mixed',
      strategy: [strategy({}, { tokens: 2, window: '1h' }), strategy({ mode: 'shadow' }, { algorithm: 'sliding-window', tokens: 1, window: '2h' })],
    });
    try {
      const responses = [await app.request.get('/limited'), await app.request.get('/limited'), await app.request.get('/limited')];
      expect(responses.map((response) => [response.status, response.headers['ratelimit-policy']])).toEqual([
        [200, '2;w=3600'],
        [200, '2;w=3600'],
        [429, '2;w=3600'],
      ]);
      // The shadow strategy was asked on the second and the refused third request (its would-be refusal
      // is logged once for the window); it holds the one token it admitted, as it would if it enforced.
      expect(shadowLines(app.logs.info)).toEqual([expect.stringMatching(/^\[ratelimit\] shadow: would block GET \/limited for 127\.0\.0\.1 \(strategy 1, GET \/limited, 1 per 2h, resets in \d+s\)$/)]);
      const config = { prefix: 'shadow-mixed', strategy: [strategy({}, { tokens: 2, window: '1h' }), strategy({ mode: 'shadow' }, { algorithm: 'sliding-window', tokens: 1, window: '2h' })] };
      expect((await countersOf(config, 1, '127.0.0.1'))[0]).toBe(1);
    } finally {
      app.close();
    }
  });

  it("gives a shadow strategy's token back when an enforcing strategy refuses the request, as every admitting strategy's is", async () => {
    const config = { prefix: 'shadow-refund', strategy: [strategy({}, { tokens: 1, window: '1h' }), strategy({ mode: 'shadow' as const }, { algorithm: 'sliding-window', tokens: 5, window: '2h' })] };
    const app = limitedApp({ url: store.kv.url, token: store.kv.token, ...config });
    try {
      expect(await statuses(() => app.request.get('/limited'), 2)).toEqual([200, 429]);
      // The shadow strategy admitted both; the refused request's token was given back.
      expect((await countersOf(config, 1, '127.0.0.1'))[0]).toBe(1);
    } finally {
      app.close();
    }
  });

  it('with failureMode closed and the store down, a request only shadow strategies cover goes through, and one an enforcing strategy covers gets 503', async () => {
    const app = limitedApp({
      url: await closedPortUrl(),
      token: store.kv.token,
      prefix: 'shadow-closed',
      timeout: 150,
      failureMode: 'closed',
      strategy: [strategy({ mode: 'shadow' }), strategy({ path: '/enforced' })],
    });
    try {
      expect([(await app.request.get('/limited')).status, (await app.request.get('/enforced')).status]).toEqual([200, 503]);
    } finally {
      app.close();
    }
  });
});
