// The deny list through the plugin's Koa middleware, against the real key-value REST server with the
// real clients: a denied caller gets 403 in Strapi's error shape with no rate-limit headers and
// spends no token; the check rides the limits' pipelined round trip; a timed deny expires; a plain
// console-style SADD denies; a lift applies at once on the instance that served it and within
// `denyCacheMs` on another instance sharing the store. On both engines of the key-value server (the
// script runs on the memory engine's Lua VM and in a real redis-server).
import { Redis } from '@upstash/redis';
import { advanceDate, fakeDateOnly } from '../../support/fake-date';
import { describeEachEngine, startServer } from '../../support/kv-servers';
import { startStoreProxy } from './store-proxy';
import { limitedApp, statuses, strategy, type KvRestServer, type LimitedApp } from './support';

const DENIED_BODY = { data: null, error: { status: 403, name: 'ForbiddenError', message: 'This caller is denied access', details: {} } };

describeEachEngine('the deny list', (engine) => {
  const store = {} as { kv: KvRestServer; redis: Redis };
  beforeAll(async () => {
    store.kv = await startServer(engine);
    store.redis = new Redis({ url: store.kv.url, token: store.kv.token });
  });
  afterAll(() => store.kv.close());
  const apps: LimitedApp[] = [];
  const app = (config: Record<string, unknown>, options: { proxy?: boolean } = {}): LimitedApp => {
    const made = limitedApp({ url: store.kv.url, token: store.kv.token, ...config }, options);
    apps.push(made);
    return made;
  };
  afterEach(() => {
    jest.useRealTimers();
    apps.splice(0).forEach((made) => made.close());
  });

  it('a denied caller gets 403 in Strapi\'s error shape with no rate-limit headers, and spends nothing on any strategy', async () => {
    const config = { prefix: 'deny-403', strategy: [strategy({ identifierSource: 'header.x-caller' }, { tokens: 3 }), strategy({ path: '*', identifierSource: 'ip' }, { algorithm: 'token-bucket', tokens: 5 })] };
    const admin = app(config);
    // Another instance, answering every request from the store (no hit cache): each denied request reaches the checks.
    const other = app({ ...config, denyCacheMs: 0 });
    expect(await admin.limiter.denyCaller({ header: 'X-Caller', value: 'flooder' }, 'admin@example.com')).toEqual({ member: 'header.x-caller:flooder' });

    for (const instance of [admin, other]) {
      const refused = await instance.request.get('/limited').set('x-caller', 'flooder');
      expect([refused.status, refused.body]).toEqual([403, DENIED_BODY]);
      expect(Object.keys(refused.headers).filter((name) => /ratelimit|retry-after/i.test(name))).toEqual([]);
    }
    expect(await statuses(() => other.request.get('/limited').set('x-caller', 'flooder'), 4)).toEqual([403, 403, 403, 403]);

    await admin.limiter.liftDenied({ member: 'header.x-caller:flooder' }, 'admin@example.com');
    // Nothing was spent while denied: the full 3 on the route, and of the IP's bucket of 5, 3 for
    // these admissions (the refused fourth gets its token back) and 1 for this last request.
    expect(await statuses(() => admin.request.get('/limited').set('x-caller', 'flooder'), 4)).toEqual([200, 200, 200, 429]);
    expect((await admin.request.get('/elsewhere')).headers.ratelimit).toMatch(/^limit=5, remaining=1, reset=\d+$/);
  });

  it('rides the limits\' pipelined round trip: one store request per allowed request with the deny list on', async () => {
    const proxy = await startStoreProxy(store.kv.url);
    try {
      const limited = app({ url: proxy.url, prefix: 'deny-trips', strategy: [strategy({}, { tokens: 100 }), strategy({ path: '*' }, { algorithm: 'sliding-window', tokens: 100 })] });
      // The first request loads the scripts (EVALSHA, NOSCRIPT, then EVAL).
      expect((await limited.request.get('/limited')).status).toBe(200);
      const warm = proxy.count();
      expect(await statuses(() => limited.request.get('/limited'), 5)).toEqual([200, 200, 200, 200, 200]);
      expect(proxy.count() - warm).toBe(5);
      expect(await store.redis.exists('deny-trips:denyList:all')).toBe(0);
    } finally {
      await proxy.close();
    }
  });

  it('a timed deny ends at its expiry and leaves the listing', async () => {
    fakeDateOnly();
    const limited = app({ prefix: 'deny-timed', denyCacheMs: 60_000, strategy: [strategy({ identifierSource: 'header.x-caller' })] });
    const { until } = await limited.limiter.denyCaller({ header: 'x-caller', value: 'visitor', duration: '1h' }, 'admin@example.com');
    expect(until).toBe(Date.now() + 3_600_000);
    expect(await statuses(() => limited.request.get('/limited').set('x-caller', 'visitor'), 2)).toEqual([403, 403]);
    advanceDate(3_599_000);
    expect((await limited.request.get('/limited').set('x-caller', 'visitor')).status).toBe(403);
    advanceDate(1000);
    expect(await statuses(() => limited.request.get('/limited').set('x-caller', 'visitor'), 2)).toEqual([200, 200]);
    // A check leaves the entry (issue 34 finding 4); the listing drops it, and removes it once the store's clock has passed it too.
    expect(await store.redis.smembers('deny-timed:denyList:all')).toEqual(['header.x-caller:visitor']);
    expect((await limited.limiter.listDenied()).members).toEqual([]);
  });

  it('a console-style plain SADD of a raw IPv4 or IPv6 address denies that caller, and the list shows it', async () => {
    const limited = app({ prefix: 'deny-console', strategy: [strategy({ identifierSource: 'header.x-caller' })] }, { proxy: true });
    await store.redis.sadd('deny-console:denyList:all', '2001:db8::5', '203.0.113.9');
    const from = (ip: string) => limited.request.get('/limited').set('x-forwarded-for', ip).set('x-caller', 'someone');
    expect([(await from('2001:db8::5')).status, (await from('203.0.113.9')).status, (await from('2001:db8::6')).status]).toEqual([403, 403, 200]);
    expect((await limited.limiter.listDenied()).members.map(({ member, kind }) => [member, kind]).sort()).toEqual([['2001:db8::5', 'ip'], ['203.0.113.9', 'ip']]);
  });

  it('an IPv6 deny covers the caller\'s whole /64 as keyed', async () => {
    const limited = app({ prefix: 'deny-v6', strategy: [strategy()] }, { proxy: true });
    expect(await limited.limiter.denyCaller({ ip: '2001:db8:0:7::1' }, 'admin@example.com')).toEqual({ member: '2001.db8.0.7.0.0.0.0/64' });
    const from = (ip: string) => limited.request.get('/limited').set('x-forwarded-for', ip);
    expect([(await from('2001:db8:0:7:ffff::9')).status, (await from('2001:db8:0:8::1')).status]).toEqual([403, 200]);
  });

  it('a lift applies at once on the instance that served it and within denyCacheMs on another instance sharing the store', async () => {
    fakeDateOnly();
    const config = { prefix: 'deny-lift', denyCacheMs: 10_000, strategy: [strategy({ identifierSource: 'header.x-caller' }, { tokens: 100 })] };
    const here = app(config);
    const elsewhere = app(config);
    await here.limiter.denyCaller({ header: 'x-caller', value: 'pest' }, 'admin@example.com');
    const ask = (instance: LimitedApp) => instance.request.get('/limited').set('x-caller', 'pest').then((response) => response.status);
    expect([await ask(here), await ask(elsewhere)]).toEqual([403, 403]);

    expect(await here.limiter.liftDenied({ member: 'header.x-caller:pest' }, 'admin@example.com')).toEqual({ member: 'header.x-caller:pest', lifted: true });
    expect([await ask(here), await ask(elsewhere)]).toEqual([200, 403]);
    advanceDate(9_999);
    expect(await ask(elsewhere)).toBe(403);
    advanceDate(1);
    expect(await ask(elsewhere)).toBe(200);
  });

  it('store failures follow failureMode: open admits the callers it does not remember as denied, closed answers 503, local limits in memory; a remembered deny still refuses', async () => {
    const proxy = await startStoreProxy(store.kv.url);
    try {
      const config = { url: proxy.url, prefix: 'deny-outage', strategy: [strategy({ identifierSource: 'header.x-caller' }, { tokens: 100 })] };
      const open = app(config);
      const closed = app({ ...config, failureMode: 'closed' });
      const local = app({ ...config, failureMode: 'local', strategy: [strategy({ identifierSource: 'header.x-caller' }, { tokens: 1 })] });
      for (const instance of [open, closed, local]) await instance.limiter.denyCaller({ header: 'x-caller', value: 'pest' }, 'admin@example.com');
      proxy.mode = 'reset';
      const ask = (instance: LimitedApp, caller: string) => instance.request.get('/limited').set('x-caller', caller).then((response) => response.status);
      expect([await ask(open, 'pest'), await ask(open, 'polite'), await ask(closed, 'pest'), await ask(closed, 'polite')]).toEqual([403, 200, 403, 503]);
      expect([await ask(local, 'pest'), await ask(local, 'polite'), await ask(local, 'polite')]).toEqual([403, 200, 429]);
    } finally {
      await proxy.close();
    }
  });

  it('with analytics, a denied request is one denied event, counted as blocked in the chart', async () => {
    const limited = app({ prefix: 'deny-events', analytics: true, denyCacheMs: 0, strategy: [strategy({ identifierSource: 'header.x-caller' })] });
    await limited.limiter.denyCaller({ header: 'x-caller', value: 'pest' }, 'admin@example.com');
    expect(await statuses(() => limited.request.get('/limited').set('x-caller', 'pest'), 2)).toEqual([403, 403]);
    // Events are written after the response.
    let hour = { allowed: 0, blocked: 0 };
    for (let attempt = 0; attempt < 50 && hour.blocked < 2; attempt++) {
      hour = (await limited.limiter.readUsage()).analytics!.hours[23];
      if (hour.blocked < 2) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(hour).toEqual({ time: expect.any(Number), allowed: 0, blocked: 2 });
  });

  it('a debug strategy logs a denied request with the member that matched', async () => {
    const limited = app({ prefix: 'deny-debug', strategy: [strategy({ identifierSource: 'header.x-caller', debug: true })] });
    await limited.limiter.denyCaller({ header: 'x-caller', value: 'pest' }, 'admin@example.com');
    expect((await limited.request.get('/limited').set('x-caller', 'pest')).status).toBe(403);
    expect(limited.logs.info).toEqual(['[ratelimit] deny list: header.x-caller:pest denied until lifted by admin@example.com', '[ratelimit] GET /limited: denied (header.x-caller:pest)']);
  });

  it('with denyList: false, no deny check is made: a listed caller is limited as any other', async () => {
    const limited = app({ prefix: 'deny-off', denyList: false, strategy: [strategy({ identifierSource: 'header.x-caller' }, { tokens: 2 })] });
    await store.redis.sadd('deny-off:denyList:all', 'header.x-caller:pest');
    expect(await statuses(() => limited.request.get('/limited').set('x-caller', 'pest'), 3)).toEqual([200, 200, 429]);
  });
});
