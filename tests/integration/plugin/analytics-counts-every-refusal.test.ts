// With `analytics: true`, every decision of a strategy that counted a request is an event in
// @upstash/ratelimit's analytics (what the admin view charts), including refusals answered from the
// block cache without a limiter call (server/src/http/decision-events.ts).
import { analyticsUsage, limitedApp, statuses, storeForSuite, strategy } from './support';

describe('analytics', () => {
  const store = storeForSuite();

  it('records allowed and blocked requests, also those refused from memory', async () => {
    const app = limitedApp({ url: store.kv.url, token: store.kv.token, prefix: 'an1', analytics: true, strategy: [strategy({}, { tokens: 2 })] });
    try {
      expect(await statuses(() => app.request.get('/limited'), 5)).toEqual([200, 200, 429, 429, 429]);
      expect(await analyticsUsage(store.redis, 'an1', 5)).toEqual({ 'GET:/limited:127.0.0.1:fixed-window.1h': { success: 2, blocked: 3 } });
    } finally {
      app.close();
    }
  });

  it('records one event per strategy that counted the request: a strategy whose token was given back records nothing', async () => {
    const app = limitedApp({
      url: store.kv.url,
      token: store.kv.token,
      prefix: 'an3',
      analytics: true,
      strategy: [strategy({}, { algorithm: 'fixed-window', tokens: 1, window: '1h' }), strategy({}, { algorithm: 'sliding-window', tokens: 5, window: '2h' })],
    });
    try {
      // The second request is refused by the burst window from the store, the third from the block cache.
      expect(await statuses(() => app.request.get('/limited'), 3)).toEqual([200, 429, 429]);
      expect(await analyticsUsage(store.redis, 'an3', 4)).toEqual({
        'GET:/limited:127.0.0.1:fixed-window.1h': { success: 1, blocked: 2 },
        'GET:/limited:127.0.0.1:sliding-window.2h': { success: 1, blocked: 0 },
      });
    } finally {
      app.close();
    }
  });

  it('writes no analytics keys when analytics is off', async () => {
    const app = limitedApp({ url: store.kv.url, token: store.kv.token, prefix: 'an2', strategy: [strategy({}, { tokens: 1 })] });
    try {
      expect(await statuses(() => app.request.get('/limited'), 3)).toEqual([200, 429, 429]);
      expect((await store.redis.keys('an2:events:*')).length).toBe(0);
    } finally {
      app.close();
    }
  });
});
