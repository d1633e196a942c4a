// Test support for the plugin talking to Redis directly (issue 26): each topology the transport
// serves, as a suite runs it: one node (the run's redis-server at REDIS_URL), one node over TLS
// (rediss:// with a throwaway CA named by ?tlsCa=), a Sentinel set (a primary, its replica, three
// sentinels) and a 3-master Redis Cluster, the last three started for the suite
// (tests/support/redis-topologies.ts). Every suite here runs once per topology.
import { REDIS_OF_THE_RUN } from '../../fixtures/installed-programs';
import { describeWithProgram, describeWithRedisBinary, describeWithRedisCluster } from '../../support/installed-program';
import { useRedisCluster, useRedisSentinel, useTlsRedis } from '../../support/redis-topologies';

export interface RedisTopologyUnderTest {
  readonly name: 'one node' | 'one node over TLS' | 'sentinel' | 'cluster';
  /** The plugin's `url` for it (readable once the suite's beforeAll ran). */
  readonly url: string;
}

/** Runs `suite` against each topology; the topology's url is readable from the suite's tests on. */
export function describeEachRedisTopology(title: string, suite: (topology: RedisTopologyUnderTest) => void): void {
  describeWithProgram(REDIS_OF_THE_RUN, `${title} [one redis node]`, () => suite({ name: 'one node', get url() { return process.env.REDIS_URL!; } }));
  describeWithRedisBinary(`${title} [one redis node over TLS]`, () => {
    const tls = useTlsRedis();
    suite({ name: 'one node over TLS', get url() { return tls().url; } });
  });
  describeWithRedisBinary(`${title} [sentinel]`, () => {
    const sentinel = useRedisSentinel();
    suite({ name: 'sentinel', get url() { return sentinel().url; } });
  });
  describeWithRedisCluster(`${title} [cluster]`, () => {
    const cluster = useRedisCluster();
    suite({ name: 'cluster', get url() { return cluster().url; } });
  });
}

/** A fresh prefix per test, so tests sharing a Redis never read each other's keys. */
export const freshPrefix = (name: string): string => `${name}-${Math.random().toString(36).slice(2, 8)}`;
