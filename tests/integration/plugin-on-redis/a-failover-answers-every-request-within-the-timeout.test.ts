// Issue 34 finding 2: a primary killed under load (a Cluster's master, with its replica promoted by
// the cluster; Sentinel's primary, replaced by the sentinels) must not hold a request longer than the
// plugin's `timeout`: the failure mode answers it meanwhile. Before the fix, callers on a Cluster's
// killed master waited 2.1-3.0 s with a 1000 ms timeout (ioredis's auto-pipeline sent the command
// again after each `Connection is closed` and `CLUSTERDOWN`, and each send armed its timer anew).
// Requests go out at a steady rate whatever the answers (an open loop, as independent callers), from
// callers spread over every slot (failover-under-load.ts). The bound is timeout + a generous margin
// for a loaded machine's scheduling: a correctness bound (no request waits for the failover), not a
// speed goal. The Cluster case also prints the fail-opens by the state of the caller's master (issue
// 34 finding 4: the figures README's "Production on your own Redis" quotes).
import { describeWithRedisBinary, describeWithRedisCluster } from '../../support/installed-program';
import { useRedisCluster, useRedisSentinel, useTlsRedisSentinel } from '../../support/redis-topologies';
import { RedisClient } from '../../fixtures/redis-client';
import type { ThrowawayRedisCluster } from '../../fixtures/redis-cluster';
import type { ThrowawayRedisSentinel } from '../../fixtures/redis-sentinel';
import { failoverApps, killAClusterMasterUnderLoad, loadThrough, longest, type Answer } from './failover-under-load';

/** timeout + a scheduling margin: two cores shared with other suites delay timers and sockets. */
const LONGEST_WAIT_MS = 1500;

const failoverApp = failoverApps();

/** What the test asserts: every request answered (admitted), and none waiting past the bound. */
const summary = (answers: readonly Answer[]) => ({
  answered: answers.filter(({ status }) => status === 200).length,
  waitedPastTheBound: answers.filter(({ waitedMs }) => waitedMs > LONGEST_WAIT_MS).map(({ caller, waitedMs, failedOpen }) => ({ caller, waitedMs, failedOpen })),
});

async function clusterFailover(cluster: ThrowawayRedisCluster, label: string): Promise<void> {
  const { answers, figures } = await killAClusterMasterUnderLoad(failoverApp(cluster.url), cluster);
  process.stdout.write(`${label}: ${figures}\n`);
  expect(summary(answers)).toEqual({ answered: answers.length, waitedPastTheBound: [] });
}

describeWithRedisCluster('a Redis Cluster master killed under load', () => {
  const cluster = useRedisCluster({ masters: 3, replicasPerMaster: 1 });

  it('answers every request within the timeout, from the failure mode while the replica is promoted', async () => {
    await clusterFailover(cluster(), 'cluster failover');
  }, 60_000);
});

describeWithRedisCluster('a Redis Cluster that serves its other slots while one master fails (cluster-require-full-coverage no)', () => {
  const cluster = useRedisCluster({ masters: 3, replicasPerMaster: 1 });

  it('answers every request within the timeout, from the failure mode while the replica is promoted', async () => {
    await Promise.all(cluster().nodes.map((node) => RedisClient.ask(node.url, ['CONFIG', 'SET', 'cluster-require-full-coverage', 'no'])));
    await clusterFailover(cluster(), 'cluster failover, cluster-require-full-coverage no');
  }, 60_000);
});

async function sentinelFailover(url: string, set: ThrowawayRedisSentinel, label: string): Promise<void> {
  const app = failoverApp(url);
  let killedAt = 0;
  let promotedAt = 0;
  const answers = await loadThrough(app, async () => {
    killedAt = Date.now();
    await set.waitForFailover(await set.killPrimary());
    promotedAt = Date.now();
  });
  expect(summary(answers)).toEqual({ answered: answers.length, waitedPastTheBound: [] });
  process.stdout.write(`${label}: promoted after ${promotedAt - killedAt} ms; ${answers.length} requests, longest wait ${longest(answers)} ms, ${answers.filter(({ failedOpen }) => failedOpen).length} failed open\n`);
}

describeWithRedisBinary('a Sentinel primary killed under load', () => {
  const sentinel = useRedisSentinel();

  it('answers every request within the timeout, from the failure mode while the sentinels promote the replica', async () => {
    await sentinelFailover(sentinel().url, sentinel(), 'sentinel failover');
  }, 60_000);
});

// Over TLS each reconnection (to the sentinels, the dead primary, the new one) is a TLS handshake
// with the url's private CA, whose context the store makes once (server/src/store/tls-trust.ts).
describeWithRedisBinary('a Sentinel primary over TLS killed under load', () => {
  const sentinel = useTlsRedisSentinel();

  it('answers every request within the timeout, from the failure mode while the sentinels promote the replica', async () => {
    await sentinelFailover(sentinel().url, sentinel().topology, 'sentinel over TLS failover');
  }, 60_000);
});
