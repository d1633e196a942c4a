// Live limits through the plugin, with the real @upstash/redis and @upstash/ratelimit against the
// key-value REST server (memory engine) and the embedded store: a limit set from the admin API
// applies on the next request for all three algorithms (a token bucket's size: no tokens added before
// the next refill, remaining never above the limit), "back to config" removes it, resetting a caller
// keeps it, every change is logged with the admin, a foreign stored value is reported as invalid
// and crashes nothing, and an outage with failureMode 'local' keeps the last live limit seen.
import { liveLimitKey } from '../../../server/src/limiter/live-limit-scope';
import { advanceDate, fakeDateOnly } from '../../support/fake-date';
import { startStoreProxy } from './store-proxy';
import { appsClosedAfterEach, limitedApp, startKvRestServer, statuses, storeForSuite, strategy, type LimitedApp } from './support';

const store = storeForSuite();
const apps = appsClosedAfterEach();

function appOf(prefix: string, limiter: Parameters<typeof strategy>[1], options: Record<string, unknown> = { url: store.kv.url, token: store.kv.token }): LimitedApp {
  const app = limitedApp({ ...options, prefix, strategy: [strategy({ identifierSource: 'header.x-caller' }, limiter)] });
  apps.push(app);
  return app;
}

const get = (app: LimitedApp, caller = 'a') => () => app.request.get('/limited').set('x-caller', caller);
const liveKeyOf = (app: LimitedApp): string => `${app.limiter.config.prefix}:live:GET:/limited:${app.limiter.config.strategy[0].limiter.algorithm}.1h:dynamic:global`;

it.each([
  // The fixed window counts refused requests too (its counter is 3 after the refusal).
  ['fixed-window', [200, 429]],
  ['sliding-window', [200, 200, 429]],
] as const)('%s: a raised live limit admits on the next request, a lowered one refuses on the next request', async (algorithm, afterRaise) => {
  fakeDateOnly(1_800_000_000_000);
  const app = appOf(`next-${algorithm}`, { algorithm, tokens: 2, window: '1h' });
  expect(await statuses(get(app), 3)).toEqual([200, 200, 429]);

  expect(await app.limiter.setLiveLimit(0, 4, 'admin@example.com')).toEqual({ strategy: 0, configured: 2, live: 4 });
  const raised = await statuses(get(app), afterRaise.length);
  const policy = (await get(app, 'b')()).headers['ratelimit-policy'];
  await app.limiter.setLiveLimit(0, 1, 'admin@example.com');
  const lowered = await statuses(get(app, 'b'), 1);

  expect([raised, policy, lowered, await store.redis.get(liveKeyOf(app))]).toEqual([afterRaise, '4;w=3600', [429], 1]);
  expect(app.logs.info).toEqual([
    `[ratelimit] live limit of strategy[0] (GET /limited) 2 -> 4 by admin@example.com`,
    `[ratelimit] live limit of strategy[0] (GET /limited) 4 -> 1 by admin@example.com`,
  ]);
});

it('token-bucket: the live limit is the bucket size; raising it adds no token before the next refill, and remaining never shows more than a lowered limit', async () => {
  fakeDateOnly(1_800_000_000_000);
  const app = appOf('next-bucket', { algorithm: 'token-bucket', tokens: 2, refillRate: 1, window: '1h' });
  expect(await statuses(get(app), 3)).toEqual([200, 200, 429]);

  await app.limiter.setLiveLimit(0, 5, 'admin@example.com');
  const stillEmpty = await get(app)();
  advanceDate(3_600_000);
  const refilled = await get(app)();
  const fresh = await get(app, 'c')();
  await app.limiter.setLiveLimit(0, 2, 'admin@example.com');
  const lowered = await get(app, 'c')();

  expect([stillEmpty.status, stillEmpty.headers.ratelimit, refilled.status, refilled.headers.ratelimit, fresh.headers.ratelimit, lowered.status, lowered.headers.ratelimit]).toEqual([
    429,
    'limit=5, remaining=0, reset=3600',
    200,
    'limit=5, remaining=0, reset=3600',
    // A bucket made under the live limit starts full at its size.
    'limit=5, remaining=4, reset=3600',
    // The script keeps the fuller bucket until it refills (3 tokens left); the headers say at most the limit.
    200,
    'limit=2, remaining=2, reset=3600',
  ]);
});

it('back to config removes the live key and the configured tokens apply on the next request', async () => {
  const app = appOf('back', { algorithm: 'fixed-window', tokens: 2, window: '1h' });
  await app.limiter.setLiveLimit(0, 10, 'admin@example.com');
  expect(await statuses(get(app), 3)).toEqual([200, 200, 200]);

  expect(await app.limiter.setLiveLimit(0, null, 'root@example.com')).toEqual({ strategy: 0, configured: 2, live: null });
  const next = await get(app)();

  expect([next.status, next.headers['ratelimit-policy'], await store.redis.exists(liveKeyOf(app)), (await app.limiter.readUsage()).strategies[0].liveTokens]).toEqual([429, '2;w=3600', 0, null]);
  expect(app.logs.info[1]).toBe('[ratelimit] live limit of strategy[0] (GET /limited) 10 -> 2 (back to config) by root@example.com');
});

it('resetting a caller keeps the live limit', async () => {
  const app = appOf('reset-keeps', { algorithm: 'sliding-window', tokens: 1, window: '1h' });
  await app.limiter.setLiveLimit(0, 3, 'admin@example.com');
  expect(await statuses(get(app), 4)).toEqual([200, 200, 200, 429]);

  await app.limiter.resetCaller(0, 'a');

  expect([await statuses(get(app), 4), await store.redis.get(liveKeyOf(app)), (await app.limiter.readUsage()).strategies[0].liveTokens]).toEqual([[200, 200, 200, 429], 3, 3]);
});

it('the usage report shows the live value, counts callers against it, and shows a foreign value as invalid without failing a request', async () => {
  const app = appOf('report', { algorithm: 'fixed-window', tokens: 2, window: '1h' });
  await app.limiter.setLiveLimit(0, 6, 'admin@example.com');
  await statuses(get(app), 3);
  const report = (await app.limiter.readUsage()).strategies[0];

  await store.redis.set(liveKeyOf(app), 'abc');
  const foreign = await get(app, 'z')();
  const invalid = (await app.limiter.readUsage()).strategies[0].liveTokens;

  expect([report.tokens, report.liveTokens, report.runtimeChangeable, report.callers.map(({ used, remaining, limit }) => ({ used, remaining, limit }))]).toEqual([
    2,
    6,
    ['tokens'],
    [{ used: 3, remaining: 3, limit: 6 }],
  ]);
  // The script's answer under a foreign value is no verdict: failureMode 'open' (the default) lets it through, never a 500.
  expect([foreign.status, foreign.headers['ratelimit-policy'], invalid]).toEqual([200, undefined, 'invalid']);
});

it('on the embedded store (no url) a live limit applies and goes back to config the same way', async () => {
  const app = appOf('embedded', { algorithm: 'fixed-window', tokens: 1, window: '1h' }, {});
  expect(app.limiter.store).toEqual({ kind: 'embedded' });
  await app.limiter.setLiveLimit(0, 3, 'admin@example.com');
  const raised = await statuses(get(app), 4);
  await app.limiter.setLiveLimit(0, null, 'admin@example.com');
  const back = await statuses(get(app, 'b'), 2);
  expect([raised, back, (await app.limiter.readUsage()).strategies[0].liveTokens]).toEqual([[200, 200, 200, 429], [200, 429], null]);
});

it('with failureMode local, an outage keeps applying the last live limit seen; an instance that saw none applies the config', async () => {
  const kv = await startKvRestServer();
  const proxy = await startStoreProxy(kv.url);
  try {
    const options = { url: proxy.url, token: kv.token, failureMode: 'local' };
    const seen = appOf('local-seen', { algorithm: 'fixed-window', tokens: 1, window: '1h' }, options);
    const unseen = appOf('local-seen', { algorithm: 'fixed-window', tokens: 1, window: '1h' }, options);
    await seen.limiter.setLiveLimit(0, 3, 'admin@example.com');
    expect((await get(seen, 'warm')()).headers['ratelimit-policy']).toBe('3;w=3600');

    proxy.mode = 'reset';
    expect([await statuses(get(seen), 4), await statuses(get(unseen), 2)]).toEqual([
      [200, 200, 200, 429],
      [200, 429],
    ]);
  } finally {
    await proxy.close();
    await kv.close();
  }
});

it('the live key of the strategy is the one the admin API writes', async () => {
  const app = appOf('key', { algorithm: 'token-bucket', tokens: 1, window: '1h' });
  await app.limiter.setLiveLimit(0, 9, 'admin@example.com');
  expect(await store.redis.keys('key:*')).toEqual([liveKeyOf(app)]);
  expect(liveKeyOf(app)).toBe(liveLimitKey('key:live:GET:/limited:token-bucket.1h'));
});
