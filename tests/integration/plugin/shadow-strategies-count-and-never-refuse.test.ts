// Shadow mode through plain Koa on the real embedded store (server/src/http/shadow-log.ts and
// middleware.ts): a shadow strategy counts exactly as an enforcing one, never refuses, sends no
// rate-limit headers and logs each would-be refusal once per caller per window (every one with debug).
import { parseConfig } from '../../../server/src/config/parse-config';
import { compileConfig } from '../../../server/src/config/rules';
import { closedPortUrl } from './store-proxy';
import { fakeDateOnly, limitedApp, statuses, storeForSuite, strategy } from './support';

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
  it.each(['fixed-window', 'sliding-window', 'token-bucket'] as const)('a %s shadow strategy never refuses and leaves the same counters in the store as the enforcing one', async (algorithm) => {
    const limited = strategy({}, { algorithm, tokens: 3 });
    // No block cache on the enforcing side, so both send every request to the store.
    const enforcing = { prefix: `shadow-equal-enforce-${algorithm}`, blockedCacheSize: 0, strategy: [limited] };
    const shadow = { prefix: `shadow-equal-shadow-${algorithm}`, strategy: [{ ...limited, mode: 'shadow' as const }] };
    const enforcingApp = limitedApp({ url: store.kv.url, token: store.kv.token, ...enforcing });
    const shadowApp = limitedApp({ url: store.kv.url, token: store.kv.token, ...shadow });
    try {
      expect(await statuses(() => enforcingApp.request.get('/limited'), 6)).toEqual([200, 200, 200, 429, 429, 429]);
      expect(await statuses(() => shadowApp.request.get('/limited'), 6)).toEqual([200, 200, 200, 200, 200, 200]);
      const enforced = await countersOf(enforcing, 0, '127.0.0.1');
      expect(enforced[0]).not.toBeNull();
      expect(await countersOf(shadow, 0, '127.0.0.1')).toEqual(enforced);
    } finally {
      enforcingApp.close();
      shadowApp.close();
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
