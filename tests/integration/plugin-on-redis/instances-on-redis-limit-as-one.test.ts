// Issue 26: the plugin talks to Redis directly (`url: 'redis://…'`), with no gateway. Two app
// instances sharing one Redis admit exactly a strategy's tokens under concurrency, for every
// algorithm (the library's scripts, whose `allow-key-locking` shebang Redis 7.0 refuses, run
// rewritten); a live limit, a deny and a reset made on one instance apply on the other; the usage
// view reads the counters back; the boot check passes and names Redis without its credentials.
import { appsClosedAfterEach, limitedApp, strategy, type LimitedApp } from '../plugin/support';
import { describeEachRedisTopology, freshPrefix } from './support';

describeEachRedisTopology('the plugin on Redis', (topology) => {
  const apps = appsClosedAfterEach();
  const instance = (config: Record<string, unknown>): LimitedApp => {
    const app = limitedApp({ url: topology.url, timeout: 5000, ...config });
    apps.push(app);
    return app;
  };
  const twoInstances = (config: Record<string, unknown>): [LimitedApp, LimitedApp] => [instance(config), instance(config)];
  const get = (app: LimitedApp, caller = 'caller-a') => app.request.get('/limited').set('x-caller', caller);

  it.each(['fixed-window', 'sliding-window', 'token-bucket'] as const)('%s: two instances admit exactly the tokens among 40 concurrent requests', async (algorithm) => {
    const config = { prefix: freshPrefix(algorithm), strategy: [strategy({ identifierSource: 'header.x-caller' }, { algorithm, tokens: 13, window: '1h' })] };
    const [a, b] = twoInstances(config);
    const statuses = await Promise.all(Array.from({ length: 40 }, (_, index) => get(index % 2 === 0 ? a : b).then((response) => response.status)));
    expect([statuses.filter((status) => status === 200).length, statuses.filter((status) => status === 429).length]).toEqual([13, 27]);
    // Another caller has its own allowance.
    expect((await get(b, 'caller-b')).status).toBe(200);
  });

  it('boot check: passes on the plugin\'s own keys, and the store is named as configured', async () => {
    const [a] = twoInstances({ prefix: freshPrefix('boot'), strategy: [strategy()] });
    expect(await a.limiter.checkStore()).toEqual({ ok: true });
    // Logs name the address without the database 0 or the query (a CA file's path).
    expect(a.limiter.store).toEqual({ kind: 'redis', url: topology.url.replace(/(\/0)?(\?.*)?$/, '') });
  });

  it('a live limit set on one instance applies on the other at its next request, and back to config restores it', async () => {
    const config = { prefix: freshPrefix('live'), blockedCacheSize: 0, strategy: [strategy({ identifierSource: 'header.x-caller' }, { algorithm: 'sliding-window', tokens: 2, window: '1h' })] };
    const [a, b] = twoInstances(config);
    expect([(await get(b)).status, (await get(b)).status, (await get(b)).status]).toEqual([200, 200, 429]);
    await a.limiter.setLiveLimit(0, 4, 'admin@example.com');
    expect([(await get(b)).status, (await get(b)).status, (await get(b)).status]).toEqual([200, 200, 429]);
    expect((await get(b)).headers['ratelimit-policy']).toMatch(/^4;/);
    await a.limiter.setLiveLimit(0, null, 'admin@example.com');
    expect((await get(b)).status).toBe(429);
  });

  it('a caller denied on one instance is refused on the other; a lift there lets it through again', async () => {
    const config = { prefix: freshPrefix('deny'), denyCacheMs: 0, strategy: [strategy({ identifierSource: 'header.x-caller' }, { tokens: 5 })] };
    const [a, b] = twoInstances(config);
    expect((await get(b, 'flooder')).status).toBe(200);
    await a.limiter.denyCaller({ header: 'x-caller', value: 'flooder' }, 'admin@example.com');
    expect([(await get(b, 'flooder')).status, (await get(b, 'someone-else')).status]).toEqual([403, 200]);
    expect((await a.limiter.listDenied()).members.map(({ member }) => member)).toEqual(['header.x-caller:flooder']);
    await b.limiter.liftDenied({ member: 'header.x-caller:flooder' }, 'admin@example.com');
    expect((await get(a, 'flooder')).status).toBe(200);
  });

  it('the usage view reads the counters of both instances, and a reset frees the caller on every instance reading the store', async () => {
    const config = { prefix: freshPrefix('usage'), blockedCacheSize: 0, strategy: [strategy({ identifierSource: 'header.x-caller' }, { algorithm: 'fixed-window', tokens: 3, window: '1h' })] };
    const [a, b] = twoInstances(config);
    await get(a);
    await get(b);
    await get(b, 'caller-b');
    const usage = await a.limiter.readUsage();
    expect(usage.strategies[0].callers.map(({ identifier, used }) => [identifier, used]).sort()).toEqual([['caller-a', 2], ['caller-b', 1]]);
    await get(a);
    expect((await get(b)).status).toBe(429);
    expect(await a.limiter.resetCaller(0, 'caller-a')).toBe(1);
    expect((await get(b)).status).toBe(200);
  });
});
