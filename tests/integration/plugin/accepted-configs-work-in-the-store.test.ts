// What the config accepts works in a real store: a token read with its trailing newline still
// limits (finding 5), and the longest windows and slowest buckets within the bounds count, refuse
// and leave keys that expire.
import { limitedApp, statuses, storeForSuite, strategy } from './support';

describe('accepted configs work in the store', () => {
  const store = storeForSuite();
  let prefixCounter = 0;

  it('finding 5: a token with a trailing newline (a secret file\'s last line) still limits instead of failing open', async () => {
    const app = limitedApp({ url: store.kv.url, token: `${store.kv.token}\n`, prefix: `nl${++prefixCounter}`, strategy: [strategy({}, { tokens: 1 })] });
    try {
      expect(await statuses(() => app.request.get('/limited'), 2)).toEqual([200, 429]);
      expect(app.logs.warn).toEqual([]);
    } finally {
      app.close();
    }
  });

  it.each([
    { algorithm: 'fixed-window', tokens: 1, window: '3650d' },
    { algorithm: 'sliding-window', tokens: 1, window: '3650d' },
    { algorithm: 'token-bucket', tokens: 1, refillRate: 1, window: '3650d' },
    // The slowest bucket accepted: its emptied key lives 2^53 - 1 ms.
    { algorithm: 'token-bucket', tokens: 1_000_000_000, refillRate: 1, window: '9007199ms' },
  ] as const)('the bound $algorithm, $tokens per $window, counts and refuses, and its keys expire', async (limiter) => {
    const prefix = `bound${++prefixCounter}`;
    const app = limitedApp({ url: store.kv.url, token: store.kv.token, prefix, strategy: [strategy({}, limiter)] });
    try {
      const seen = await statuses(() => app.request.get('/limited'), 2);
      expect(seen).toEqual(limiter.tokens === 1 ? [200, 429] : [200, 200]);
      expect(app.logs.warn).toEqual([]);
      const keys = await store.redis.keys(`${prefix}:*`);
      const lifetimes = await Promise.all(keys.map((key) => store.redis.pttl(key)));
      expect(keys.length).toBeGreaterThan(0);
      expect(lifetimes.every((lifetime) => lifetime > 0)).toBe(true);
    } finally {
      app.close();
    }
  });
});
