// Issue 34 review (left from findings 2 and 4): the circuit breaker was one per store, so while one
// master of a Redis Cluster failed over, a command that timed out on it made every caller fail fast
// for the next 100 ms (longer while its probes failed), callers whose keys live on the healthy
// masters too. With `cluster-require-full-coverage no` (the healthy masters keep serving their
// slots), those callers must all be decided by the store; the breaker is now one per master
// (server/src/store/redis/cluster-circuits.ts). With Redis's default full coverage the whole cluster
// answers CLUSTERDOWN meanwhile, which no breaker can change (a-failover-answers-every-request-within-the-timeout).
import { describeWithRedisCluster } from '../../support/installed-program';
import { useRedisCluster } from '../../support/redis-topologies';
import { RedisClient } from '../../fixtures/redis-client';
import { failoverApps, killAClusterMasterUnderLoad } from './failover-under-load';

const failoverApp = failoverApps();

describeWithRedisCluster('a Redis Cluster master killed under load, the others serving their slots (cluster-require-full-coverage no)', () => {
  const cluster = useRedisCluster({ masters: 3, replicasPerMaster: 1 });

  it('decides every request of callers on the healthy masters from the store', async () => {
    await Promise.all(cluster().nodes.map((node) => RedisClient.ask(node.url, ['CONFIG', 'SET', 'cluster-require-full-coverage', 'no'])));
    const { onHealthy, onKilled, figures } = await killAClusterMasterUnderLoad(failoverApp(cluster().url), cluster());
    process.stdout.write(`per-node breakers, cluster-require-full-coverage no: ${figures}\n`);
    // Before (one breaker per store), two runs: 121 of the 278 and 46 of the 191 on healthy masters failed open.
    expect({ failedOpenOnHealthyMasters: onHealthy.filter(({ failedOpen }) => failedOpen).length, someOnTheKilledOneFailedOpen: onKilled.some(({ failedOpen }) => failedOpen) }).toEqual({
      failedOpenOnHealthyMasters: 0,
      someOnTheKilledOneFailedOpen: true,
    });
  }, 60_000);
});
