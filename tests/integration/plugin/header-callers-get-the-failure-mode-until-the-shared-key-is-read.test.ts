// Issue 34 finding 1: the key of hashed header identifiers lives in the store (created once, read by
// every instance: server/src/http/header-hash-key.ts). While the store cannot give it (down at
// boot), a request of a strategy keyed by a hashed header is never keyed with a key of this
// instance's own, which other instances would not share: it gets the failure mode, as in any outage
// (counted and warned about once with `open`, 503 with `closed`). Once the store answers, the key is
// read by the next such request and limits apply; it is one key of the prefix, with no expiry. A
// value in that key that is no key (too short) is a store failure naming the key, never a guess.
// With `failureMode: 'local'` they were let through as with `open` (issue 34 review): they are now
// counted in memory under a key of the instance's own, which never leaves it.
import { Redis } from '@upstash/redis';
import { appsClosedAfterEach, limitedApp, startKvRestServer, statuses, strategy, type KvRestServer, type LimitedApp } from './support';
import { freePort } from '../../fixtures/ports';
import { eventually } from '../../fixtures/eventually';
import { headerHashKeyName } from '../../../server/src/http/header-hash-key';

describe('a header caller while the store has not given the shared key', () => {
  const apps = appsClosedAfterEach();
  let kv: KvRestServer | undefined;
  afterEach(() => kv?.close());

  const instanceOn = (port: number, failureMode: string): LimitedApp => {
    const app = limitedApp({ url: `http://127.0.0.1:${port}`, token: 'shared-token', failureMode, blockedCacheSize: 0, strategy: [strategy({ identifierSource: 'header.x-api-key' }, { tokens: 2 })] });
    apps.push(app);
    return app;
  };
  const send = (app: LimitedApp) => () => app.request.get('/limited').set('x-api-key', 'k1');

  it('gets the failure mode (open: through and counted, closed: 503), then the limit once the store answers', async () => {
    const port = await freePort();
    const open = instanceOn(port, 'open');
    const closed = instanceOn(port, 'closed');
    expect([await statuses(send(open), 2), await statuses(send(closed), 1)]).toEqual([[200, 200], [503]]);
    expect(open.limiter.failOpen()).toEqual({ admitted: 2, outage: true });
    expect(open.logs.warn).toEqual([expect.stringMatching(/^\[ratelimit\] the key-value store failed \(.*ECONNREFUSED/)]);

    kv = await startKvRestServer({ port, token: 'shared-token' });
    const keyRead = await eventually(() => open.limiter.readHeaderHashKey().then(() => true, () => false), (read) => read);
    expect([keyRead, await statuses(send(open), 3), await statuses(send(closed), 1)]).toEqual([true, [200, 200, 429], [429]]);
    const store = new Redis({ url: kv.url, token: kv.token });
    expect(await store.ttl(headerHashKeyName('@cms'))).toBe(-1);
  });

  it('with failureMode local, limits them in memory under the instance\'s own key, then in the store once it answers', async () => {
    const port = await freePort();
    const local = instanceOn(port, 'local');
    // Before: [200, 200, 200, 200] (no identifier to count them by, so through as with open).
    expect(await statuses(send(local), 4)).toEqual([200, 200, 429, 429]);
    // Another caller has its own memory count.
    expect(await statuses(() => local.request.get('/limited').set('x-api-key', 'k2'), 1)).toEqual([200]);
    kv = await startKvRestServer({ port, token: 'shared-token' });
    await eventually(() => local.limiter.readHeaderHashKey().then(() => true, () => false), (read) => read);
    // The store's count starts afresh under the deployment's key; nothing of the memory count reached it.
    expect(await statuses(send(local), 3)).toEqual([200, 200, 429]);
    const keys = await new Redis({ url: kv.url, token: kv.token }).keys('@cms:*');
    expect(keys.filter((key) => key.includes('hmac=')).length).toBe(1);
  });

  it('treats a stored value that is no key as a store failure naming the key', async () => {
    const port = await freePort();
    kv = await startKvRestServer({ port, token: 'shared-token' });
    await new Redis({ url: kv.url, token: kv.token }).set(headerHashKeyName('@cms'), 'short');
    const open = instanceOn(port, 'open');
    expect(await statuses(send(open), 3)).toEqual([200, 200, 200]);
    expect(open.logs.warn).toEqual([
      "[ratelimit] the key-value store failed (the store's @cms:headerHashKey holds no header hash key (a string of 32 to 1024 characters): delete it, and the next read creates a new one); letting requests through unchecked until it answers again (1 let through unchecked since start)",
    ]);
  });
});
