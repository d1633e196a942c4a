// Issue 34 review (left from finding 1): every instance read `<prefix>:headerHashKey` once and kept
// it. When the store lost the key later (FLUSHDB here; eviction, a failover to a replica that had not
// received it or a restart without persistence alike), an instance booting then wrote a fresh one and
// counted every hashed header caller apart from the running instances, silently: a caller got twice
// its limit across two instances. Running instances now write the value they hold back (at most once
// per REASSERT_INTERVAL_MS, riding a request, and at once after an outage), and adopt, with one error
// line, a different value an instance started meanwhile wrote (server/src/http/header-hash-key.ts).
// The two instances spell the url differently (127.0.0.1 and localhost), so each would create a key
// of its own: the value a first instance writes is derived from its url (an upgrade keeps the keys
// releases before it derived).
import { Redis } from '@upstash/redis';
import { appsClosedAfterEach, limitedApp, startKvRestServer, statuses, strategy, type KvRestServer, type LimitedApp } from '../plugin/support';
import { freePort } from '../../fixtures/ports';
import { describeWithRedisBinary } from '../../support/installed-program';
import { ThrowawayRedisServer } from '../../fixtures/redis-server';
import { RedisClient } from '../../fixtures/redis-client';
import { eventually } from '../../fixtures/eventually';
import { advanceDate, fakeDateOnly, moveToNextWindow } from '../../support/fake-date';
import { headerHashKeyName, REASSERT_INTERVAL_MS } from '../../../server/src/http/header-hash-key';

const PREFIX = '@cms';
const HOUR_MS = 3_600_000;

describeWithRedisBinary('instances keep one header key after the store loses it', () => {
  let server: ThrowawayRedisServer;
  beforeAll(async () => {
    server = await ThrowawayRedisServer.start();
  });
  afterAll(() => server.remove());
  afterEach(() => RedisClient.ask(server.url, ['FLUSHDB']));
  const apps = appsClosedAfterEach();

  const url = (host: string): string => `redis://${host}:${server.port}/0`;
  const flush = (): Promise<unknown> => RedisClient.ask(server.url, ['FLUSHDB']);
  const stored = (): Promise<unknown> => RedisClient.ask(server.url, ['GET', headerHashKeyName(PREFIX)]);
  /** An instance booted as the Strapi plugin boots: the key read before it serves. */
  async function booted(host: string, extra: Record<string, unknown> = {}): Promise<LimitedApp> {
    const app = limitedApp({ url: url(host), prefix: PREFIX, timeout: 500, blockedCacheSize: 0, strategy: [strategy({ identifierSource: 'header.x-api-key' }, { tokens: 2 })], ...extra });
    apps.push(app);
    await app.limiter.readHeaderHashKey();
    return app;
  }
  const send = (app: LimitedApp, key = 'k1') => app.request.get('/limited').set('x-api-key', key);
  /** `order` sent one after another, each to its instance. */
  const inTurn = (order: LimitedApp[]) => {
    let turn = 0;
    return () => send(order[turn++]);
  };

  it('writes a lost key back, so an instance started afterwards reads the one the others use', async () => {
    fakeDateOnly();
    moveToNextWindow(HOUR_MS);
    const a = await booted('127.0.0.1');
    await flush();
    advanceDate(REASSERT_INTERVAL_MS);
    // A's first request after the interval writes its key back (in that request's round trip).
    expect(await statuses(() => send(a), 1)).toEqual([200]);
    const b = await booted('localhost');
    // One counter of 2 tokens across both (before: [200, 200, 200]: B wrote a key of its own).
    expect(await statuses(inTurn([b, a, b]), 3)).toEqual([200, 429, 429]);
    expect([a.logs.warn, b.logs.warn]).toEqual([[], []]);
  });

  it('adopts the key an instance started after the loss wrote, with one error line, and its allow-list entries with it', async () => {
    fakeDateOnly();
    moveToNextWindow(HOUR_MS);
    const extra = { allowList: ['header.x-api-key:vip'] };
    const a = await booted('127.0.0.1', extra);
    await flush();
    const b = await booted('localhost', extra);
    advanceDate(REASSERT_INTERVAL_MS);
    // This request is still keyed with A's old key; its round trip brings B's.
    expect(await statuses(() => send(a), 1)).toEqual([200]);
    await eventually(() => a.logs.warn.length, (lines) => lines > 0);
    // Before: [200, 200, 429, 200], and no line: A and B counted the caller apart.
    expect(await statuses(inTurn([a, b, a, b]), 4)).toEqual([200, 200, 429, 429]);
    expect(a.logs.warn).toEqual([
      "[ratelimit] the store's @cms:headerHashKey no longer holds the header hash key this instance used: it was lost (evicted under a maxmemory policy, flushed, a failover to a replica that had not received it, or a restart without persistence) and an instance started since wrote another. Adopting the stored key so every instance keys header callers alike again: hashed header callers start with fresh counters on this instance, and hmac= deny-list entries made with the lost key no longer match (deny them again). Set headerHashSecret, the same on every instance, so the key never depends on the store",
    ]);
    // The allow-list's entries are hashed again with the adopted key: vip stays unlimited on A.
    expect(await statuses(() => send(a, 'vip'), 3)).toEqual([200, 200, 200]);
  });

  it('writes the key back as soon as the store answers again after a restart that lost it', async () => {
    // Date stands still: the interval never passes, only the store's return can prompt the write-back.
    fakeDateOnly();
    const a = await booted('127.0.0.1');
    const held = await stored();
    await server.stop();
    await server.startAgain();
    // Requests during and after the outage, until one is decided by the store again.
    await eventually(() => send(a).then(() => a.limiter.failOpen().outage), (outage) => !outage, 10_000);
    expect(await stored()).toBe(null);
    // The first hashing after the store came back writes the key back.
    await send(a);
    expect(await stored()).toEqual(held);
  });
});

describe('an instance on a key-value REST store that restarted empty', () => {
  const apps = appsClosedAfterEach();
  let kv: KvRestServer | undefined;
  afterEach(() => kv?.close());

  it('writes the key back once the store answers again after the outage', async () => {
    // Date moves only as the test moves it, less than the interval: only the end of the outage can prompt the write-back.
    fakeDateOnly();
    const port = await freePort();
    kv = await startKvRestServer({ port, token: 'shared-token' });
    const a = limitedApp({ url: `http://127.0.0.1:${port}`, token: 'shared-token', timeout: 500, blockedCacheSize: 0, strategy: [strategy({ identifierSource: 'header.x-api-key' }, { tokens: 2 })] });
    apps.push(a);
    await a.limiter.readHeaderHashKey();
    const store = () => new Redis({ url: kv!.url, token: kv!.token }).get(headerHashKeyName(PREFIX));
    const held = await store();
    await kv.close();
    expect(await statuses(() => a.request.get('/limited').set('x-api-key', 'k1'), 1)).toEqual([200]);
    expect(a.limiter.failOpen().outage).toBe(true);
    kv = await startKvRestServer({ port, token: 'shared-token' });
    // The circuit breaker probes the store again once its interval (100 ms, doubling) has passed on the clock.
    const probed = () => (advanceDate(100), a.request.get('/limited').set('x-api-key', 'k1').then(() => a.limiter.failOpen().outage));
    await eventually(probed, (outage) => !outage, 10_000);
    expect(await store()).toBe(null);
    await a.request.get('/limited').set('x-api-key', 'k1');
    expect(await store()).toEqual(held);
  });
});
