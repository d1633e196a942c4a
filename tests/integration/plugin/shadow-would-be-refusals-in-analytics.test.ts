// With `analytics`, a shadow strategy's would-be refusals are a series of their own
// (`<prefix>:shadow:events:<hour>`, server/src/http/decision-events.ts), apart from the enforced
// decisions the chart shows, and the usage report gives each shadow strategy its total.
import { analyticsUsage, limitedApp, statuses, storeForSuite, strategy } from './support';

const store = storeForSuite();

it("records a shadow strategy's would-be refusals as their own series, keeps them out of the enforced series, and reports them per strategy", async () => {
  const app = limitedApp({
    url: store.kv.url,
    token: store.kv.token,
    prefix: 'shadow-series',
    analytics: true,
    strategy: [
      strategy({}, { tokens: 5, window: '1h' }),
      strategy({ mode: 'shadow' }, { algorithm: 'sliding-window', tokens: 2, window: '2h' }),
      strategy({ mode: 'shadow', path: '/other' }, { tokens: 1 }),
    ],
  });
  try {
    expect(await statuses(() => app.request.get('/limited'), 5)).toEqual([200, 200, 200, 200, 200]);
    expect(await analyticsUsage(store.redis, 'shadow-series:shadow', 3)).toEqual({ 'GET:/limited:sliding-window.2h': { success: 0, blocked: 3 } });
    expect(await analyticsUsage(store.redis, 'shadow-series', 5)).toEqual({ 'GET:/limited:127.0.0.1:fixed-window.1h': { success: 5, blocked: 0 } });
    const report = await app.limiter.readUsage();
    expect(report.strategies.map(({ mode, wouldBlock }) => ({ mode, wouldBlock }))).toEqual([
      { mode: 'enforce', wouldBlock: undefined },
      { mode: 'shadow', wouldBlock: 3 },
      { mode: 'shadow', wouldBlock: 0 },
    ]);
    expect(report.analytics?.hours.at(-1)).toMatchObject({ allowed: 5, blocked: 0 });
  } finally {
    app.close();
  }
});

it('reports no would-be refusals without analytics, and writes no shadow series', async () => {
  const app = limitedApp({ url: store.kv.url, token: store.kv.token, prefix: 'shadow-no-series', strategy: [strategy({ mode: 'shadow' }, { tokens: 1 })] });
  try {
    expect(await statuses(() => app.request.get('/limited'), 3)).toEqual([200, 200, 200]);
    expect((await app.limiter.readUsage()).strategies.map(({ mode, wouldBlock }) => ({ mode, wouldBlock }))).toEqual([{ mode: 'shadow', wouldBlock: undefined }]);
    expect(await store.redis.keys('shadow-no-series:shadow:*')).toEqual([]);
  } finally {
    app.close();
  }
});
