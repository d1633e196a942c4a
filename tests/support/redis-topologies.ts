// Test support: a Redis Cluster or a Sentinel set of the enclosing `describe`'s own
// (tests/fixtures/redis-cluster.ts, redis-sentinel.ts), started before its tests and removed, with
// every process and file, after them. Gate the suite with describeWithRedisCluster or
// describeWithRedisBinary (tests/support/installed-program.ts).
import { ThrowawayRedisCluster } from '../fixtures/redis-cluster';
import { ThrowawayRedisSentinel } from '../fixtures/redis-sentinel';

/** The returned function gives the started cluster: `masters` masters sharing every slot. */
export const useRedisCluster = (masters = 3): (() => ThrowawayRedisCluster) => useForTheSuite('Redis Cluster', () => ThrowawayRedisCluster.start({ masters }));

/** The returned function gives the started set: a primary, its replica and three sentinels. */
export const useRedisSentinel = (): (() => ThrowawayRedisSentinel) => useForTheSuite('Sentinel set', () => ThrowawayRedisSentinel.start());

function useForTheSuite<T extends { remove(): Promise<void> }>(what: string, start: () => Promise<T>): () => T {
  let started: T | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(async () => {
    await started?.remove();
  });
  return () => {
    if (!started) throw new Error(`the suite has not started its ${what}`);
    return started;
  };
}
