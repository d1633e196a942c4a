// Issue 26, point 5: what production does to Redis while the plugin limits. Sentinel, and a Cluster
// with a replica per primary (gap 2): the primary (of the loaded caller's slot, on the cluster) is
// killed under load; every request still gets an answer (the failure mode while the switch lasts:
// `open` lets requests through and counts them), and once the replica is promoted the plugin
// follows it and limits exactly again. Cluster: the slot of a hot caller moves to another primary
// (what `redis-cli --cluster reshard` does) while two instances admit its requests: none is admitted
// past its limit and none fails open (ioredis follows ASK and retries TRYAGAIN for each command while
// a slot moves, store/redis/redis-command-turn.ts).
import { strategy, type LimitedApp, limitedApp } from '../plugin/support';
import { describeWithRedisBinary, describeWithRedisCluster } from '../../support/installed-program';
import { useRedisCluster, useRedisSentinel } from '../../support/redis-topologies';
import { freshPrefix } from './support';
import { RedisClient } from '../../fixtures/redis-client';
import { untilItsWindowsHaveRoom } from '../../support/window-room';

const apps: LimitedApp[] = [];
afterEach(() => apps.splice(0).forEach((app) => app.close()));
const instance = (config: Record<string, unknown>): LimitedApp => {
  const app = limitedApp(config);
  apps.push(app);
  return app;
};
const get = (app: LimitedApp, caller: string) => app.request.get('/limited').set('x-caller', caller);

/** Sends requests `concurrency` at a time, alternating instances, until `done()`; every status seen. */
async function load(instances: readonly LimitedApp[], caller: string, concurrency: number, done: () => boolean): Promise<number[]> {
  const statuses: number[] = [];
  let sent = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (!done()) statuses.push((await get(instances[sent++ % instances.length], caller)).status);
    }),
  );
  return statuses;
}

const count = (statuses: readonly number[], status: number): number => statuses.filter((seen) => seen === status).length;

/**
 * The counted requests run on the real clock under hour-long windows, which start on the hour
 * (window-room.ts): they wait for this much of the hour left, more than the 300 requests of the
 * reshard took at load 8 (6.3 s), so no boundary splits their count.
 */
const ROOM_MS = 10_000;

/**
 * Two instances admit caller `steady` 4 at a time while `failover` kills its primary and resolves
 * once a replica is promoted; every request must be answered, the fail-open count is printed (the
 * figures README's "Production on your own Redis" quotes), then both instances limit exactly again.
 */
async function answeredThroughFailover(url: string, label: string, failover: () => Promise<void>): Promise<void> {
  const config = { url, timeout: 500, failureMode: 'open', blockedCacheSize: 0, strategy: [strategy({ identifierSource: 'header.x-caller' }, { algorithm: 'sliding-window', tokens: 100_000, window: '1h' })] };
  const a = instance({ ...config, prefix: freshPrefix('failover') });
  const b = instance({ ...a.limiter.config });
  let finished = false;
  const during = load([a, b], 'steady', 4, () => finished);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const killedAt = Date.now();
  await failover();
  const promotedAt = Date.now();
  // Until both instances decide from the store again (ioredis asks the sentinels, or the cluster's slot map, again).
  const outage = () => a.limiter.failOpen().outage || b.limiter.failOpen().outage;
  while (outage()) await new Promise((resolve) => setTimeout(resolve, 10));
  const backAt = Date.now();
  finished = true;
  const statuses = await during;
  const failedOpen = a.limiter.failOpen().admitted + b.limiter.failOpen().admitted;
  expect([count(statuses, 200), statuses.length]).toEqual([statuses.length, statuses.length]);
  expect(failedOpen).toBeLessThan(statuses.length);
  process.stdout.write(`${label}: promoted after ${promotedAt - killedAt} ms, decisions from the store again after ${backAt - killedAt} ms; ${failedOpen} of ${statuses.length} requests failed open\n`);

  // Exact again on the new primary, for both instances (the same caller: on a cluster, its slot is the one that failed over).
  const exact = await Promise.all(Array.from({ length: 12 }, (_, index) => get(index % 2 ? a : b, 'steady').then(({ status }) => status)));
  const strictConfig = { ...config, prefix: freshPrefix('after-failover'), strategy: [strategy({ identifierSource: 'header.x-caller' }, { tokens: 5 })] };
  const strict = instance(strictConfig);
  expect(exact.every((status) => status === 200)).toBe(true);
  // A new instance checks its store before it serves, as Strapi's boot does (boot-report.ts): its
  // first connection is made then, not by 8 requests racing a 500 ms timeout on a loaded machine
  // (a cold connection to the new primary took up to 571 ms at load 7).
  expect(await strict.limiter.checkStore()).toEqual({ ok: true });
  await untilItsWindowsHaveRoom(strictConfig, ROOM_MS);
  expect(await Promise.all(Array.from({ length: 8 }, () => get(strict, 'steady').then(({ status }) => status)))).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
}

describeWithRedisBinary('limits hold through a Sentinel failover under load', () => {
  const sentinel = useRedisSentinel();

  it('every request is answered while the primary is killed (fail open, counted), then the plugin limits exactly on the new primary', async () => {
    await answeredThroughFailover(sentinel().url, 'sentinel failover', async () => {
      const killed = await sentinel().killPrimary();
      await sentinel().waitForFailover(killed);
    });
  });
});

describeWithRedisCluster('limits hold through a Redis Cluster failover under load', () => {
  const cluster = useRedisCluster({ masters: 3, replicasPerMaster: 1 });

  it('every request is answered while the primary of the caller\'s slot is killed (fail open, counted), then the plugin limits exactly on the promoted replica', async () => {
    await answeredThroughFailover(cluster().url, 'cluster failover', async () => {
      await cluster().killMasterOf(await cluster().keySlot('steady'));
    });
  });
});

describeWithRedisCluster('limits hold while a Redis Cluster is resharded under load', () => {
  const cluster = useRedisCluster();

  it('moving the slot of a hot caller to another primary while two instances limit it admits exactly its tokens', async () => {
    const tokens = 150;
    // failureMode 'open' (the default): a request the store failed to decide would be admitted past the limit.
    const config = { url: cluster().url, timeout: 5000, failureMode: 'open', blockedCacheSize: 0, prefix: freshPrefix('reshard'), strategy: [strategy({ identifierSource: 'header.x-caller' }, { algorithm: 'sliding-window', tokens, window: '1h' })] };
    const [a, b] = [instance(config), instance(config)];
    const slot = await cluster().keySlot('hot');
    const owner = await cluster().slotOwner(slot);
    const target = cluster().nodes.find((node) => node.id !== owner.id)!;
    // Keys of its own in the caller's slot make the move last long enough to meet the load.
    const onOwner = await RedisClient.connect(owner.url);
    try {
      for (let batch = 0; batch < 20; batch++) await onOwner.send(['MSET', ...Array.from({ length: 100 }, (_, index) => [`filler:{hot}:${batch}:${index}`, 'x']).flat()]);
    } finally {
      onOwner.close();
    }
    await untilItsWindowsHaveRoom(config, ROOM_MS);
    let sent = 0;
    const during = load([a, b], 'hot', 6, () => ++sent > 2 * tokens);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await cluster().migrateSlot(slot, target);
    const statuses = await during;
    expect((await cluster().slotOwner(slot)).id).toBe(target.id);
    const failedOpen = a.limiter.failOpen().admitted + b.limiter.failOpen().admitted;
    expect({ admitted: count(statuses, 200), answered: count(statuses, 200) + count(statuses, 429), failedOpen, warnings: [...a.logs.warn, ...b.logs.warn] }).toEqual({ admitted: tokens, answered: statuses.length, failedOpen: 0, warnings: [] });
  });
});
