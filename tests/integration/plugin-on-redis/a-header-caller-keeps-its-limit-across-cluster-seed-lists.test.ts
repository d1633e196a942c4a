// Issue 34 finding 1: on a Redis Cluster, instances listing different seed nodes (which the README
// allows: "from any of its nodes") derived the header identifiers' HMAC key from different url
// strings: every API-key caller got its limit once per seed list, and a deny made on one instance
// was not seen by the other. The key is now created once in the store (one key, one slot) and read
// by every instance (server/src/http/header-hash-key.ts).
import { appsClosedAfterEach, limitedApp, statuses, strategy, type LimitedApp } from '../plugin/support';
import { describeWithRedisCluster } from '../../support/installed-program';
import { useRedisCluster } from '../../support/redis-topologies';
import { freshPrefix } from './support';

describeWithRedisCluster('a header caller on two instances that list different Cluster seeds', () => {
  const cluster = useRedisCluster();
  const apps = appsClosedAfterEach();
  const seedLists = (): [string, string] => {
    const [first, second, third] = cluster().seeds;
    return [`redis+cluster://${first}`, `redis+cluster://${third},${second}`];
  };
  const twoInstances = (config: Record<string, unknown>): [LimitedApp, LimitedApp] => {
    const [a, b] = seedLists().map((url) => limitedApp({ url, timeout: 5000, ...config }));
    apps.push(a, b);
    return [a, b];
  };
  const strategies = [strategy({ identifierSource: 'header.x-api-key' }, { tokens: 2 })];

  it('shares one counter: the limit holds across both', async () => {
    const [a, b] = twoInstances({ prefix: freshPrefix('seeds'), blockedCacheSize: 0, strategy: strategies });
    let turn = 0;
    const send = () => (turn++ % 2 === 0 ? a : b).request.get('/limited').set('x-api-key', 'k1');
    expect(await statuses(send, 4)).toEqual([200, 200, 429, 429]);
  });

  it('shares a deny: a caller denied on one instance is refused on the other', async () => {
    const [a, b] = twoInstances({ prefix: freshPrefix('seeds-deny'), denyCacheMs: 0, strategy: strategies });
    expect((await b.request.get('/limited').set('x-api-key', 'k1')).status).toBe(200);
    await a.limiter.denyCaller({ header: 'x-api-key', value: 'k1' }, 'admin@example.com');
    const seen = [(await b.request.get('/limited').set('x-api-key', 'k1')).status, (await b.request.get('/limited').set('x-api-key', 'k2')).status];
    expect(seen).toEqual([403, 200]);
  });
});
