// Several strategies on one route: all apply, any refusal refuses, and their store calls leave in
// one HTTP request to the store; a blocked caller costs no store request at all.
import { startStoreProxy } from './store-proxy';
import { type KvRestServer, limitedApp, startKvRestServer, statuses, strategy } from './support';

describe('several strategies on one route', () => {
  let kv: KvRestServer;
  beforeAll(async () => {
    kv = await startKvRestServer();
  });
  afterAll(() => kv.close());

  it('refuses when any strategy refuses, reporting the tightest limit', async () => {
    const app = limitedApp({
      url: kv.url,
      token: kv.token,
      prefix: 'multi',
      strategy: [strategy({}, { tokens: 5 }), strategy({ methods: ['ALL'], path: '*' }, { algorithm: 'sliding-window', tokens: 2 })],
    });
    try {
      const first = await app.request.get('/limited');
      expect(first.headers.ratelimit).toMatch(/^limit=2, remaining=1, reset=\d+$/);
      expect(first.headers['ratelimit-policy']).toBe('2;w=3600');
      expect(await statuses(() => app.request.get('/limited'), 2)).toEqual([200, 429]);
    } finally {
      app.close();
    }
  });

  it('sets Retry-After to the latest reset among the refusing strategies, also from the block cache', async () => {
    const app = limitedApp({
      url: kv.url,
      token: kv.token,
      prefix: 'retry',
      strategy: [strategy({}, { algorithm: 'token-bucket', tokens: 1, window: '1s' }), strategy({ methods: ['ALL'] }, { algorithm: 'fixed-window', tokens: 1, window: '1d' })],
    });
    try {
      expect((await app.request.get('/limited')).status).toBe(200);
      const untilMidnight = Math.ceil((86_400_000 - (Date.now() % 86_400_000)) / 1000);
      for (const refused of [await app.request.get('/limited'), await app.request.get('/limited')]) {
        expect(refused.status).toBe(429);
        // The day window outlasts the one-second refill; allow the clock a second between the two reads.
        expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(Math.min(untilMidnight - 1, 2));
      }
    } finally {
      app.close();
    }
  });

  it('sends all strategies of a request in one store round trip (refunds after a refusal in one more), and none for a cached block', async () => {
    const proxy = await startStoreProxy(kv.url);
    const app = limitedApp({
      url: proxy.url,
      token: kv.token,
      prefix: 'trips',
      strategy: [strategy({}, { tokens: 1 }), strategy({ methods: ['ALL'], path: '*' }, { algorithm: 'token-bucket', tokens: 5 }), strategy({ path: '/limited' }, { algorithm: 'sliding-window', tokens: 5, window: '1d' })],
    });
    try {
      // The first request also loads the scripts (EVALSHA, NOSCRIPT, then EVAL): two trips at most.
      expect((await app.request.get('/limited')).status).toBe(200);
      const afterFirst = proxy.count();
      expect(afterFirst).toBeLessThanOrEqual(2);
      expect((await app.request.get('/limited')).status).toBe(429);
      // One trip for the checks, one for giving the two admitting strategies their tokens back.
      expect(proxy.count() - afterFirst).toBe(2);
      const afterRefusal = proxy.count();
      expect(await statuses(() => app.request.get('/limited'), 5)).toEqual([429, 429, 429, 429, 429]);
      expect(proxy.count()).toBe(afterRefusal);
    } finally {
      app.close();
      await proxy.close();
    }
  });
});
