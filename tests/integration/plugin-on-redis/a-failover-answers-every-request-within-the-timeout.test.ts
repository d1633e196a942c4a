// Issue 34 finding 2: a primary killed under load (a Cluster's master, with its replica promoted by
// the cluster; Sentinel's primary, replaced by the sentinels) must not hold a request longer than the
// plugin's `timeout`: the failure mode answers it meanwhile. Before the fix, callers on a Cluster's
// killed master waited 2.1-3.0 s with a 1000 ms timeout (ioredis's auto-pipeline sent the command
// again after each `Connection is closed` and `CLUSTERDOWN`, and each send armed its timer anew).
// Requests go out at a steady rate whatever the answers (an open loop, as independent callers), from
// callers spread over every slot. The bound is timeout + a generous margin for a loaded machine's
// scheduling: a correctness bound (no request waits for the failover), not a speed goal.
// The Cluster case also prints the fail-opens by the state of the caller's master (issue 34
// finding 4: the figures README's "Production on your own Redis" quotes).
import { strategy, limitedApp, type LimitedApp } from '../plugin/support';
import { describeWithRedisBinary, describeWithRedisCluster } from '../../support/installed-program';
import { useRedisCluster, useRedisSentinel } from '../../support/redis-topologies';
import { freshPrefix } from './support';
import { RedisClient } from '../../fixtures/redis-client';
import { asText } from '../../fixtures/plain-replies';
import type { ThrowawayRedisCluster } from '../../fixtures/redis-cluster';

const TIMEOUT_MS = 500;
/** timeout + a scheduling margin: two cores shared with other suites delay timers and sockets. */
const LONGEST_WAIT_MS = 1500;
/** One request every this many ms: 200 requests per second. */
const SEND_EVERY_MS = 5;
const CALLERS = Array.from({ length: 24 }, (_, index) => `caller-${index}`);

interface Answer {
  readonly caller: string;
  readonly status: number;
  /** Admitted without a decision from the store (no rate-limit headers): failed open. */
  readonly failedOpen: boolean;
  readonly sentAt: number;
  readonly waitedMs: number;
}

const apps: LimitedApp[] = [];
afterEach(() => apps.splice(0).forEach((app) => app.close()));

function failoverApp(url: string): LimitedApp {
  const app = limitedApp({ url, prefix: freshPrefix('failover-wait'), timeout: TIMEOUT_MS, failureMode: 'open', blockedCacheSize: 0, strategy: [strategy({ identifierSource: 'header.x-caller' }, { algorithm: 'sliding-window', tokens: 100_000, window: '1h' })] });
  apps.push(app);
  return app;
}

/** Sends a request every SEND_EVERY_MS, round the callers, while `failover` runs and until the app decides from the store again; every answer. */
async function loadThrough(app: LimitedApp, failover: () => Promise<void>): Promise<Answer[]> {
  const answers: Array<Promise<Answer>> = [];
  let sent = 0;
  const send = (): void => {
    const caller = CALLERS[sent++ % CALLERS.length];
    const sentAt = Date.now();
    answers.push(
      app.request
        .get('/limited')
        .set('x-caller', caller)
        .then(({ status, headers }) => ({ caller, status, failedOpen: headers.ratelimit === undefined, sentAt, waitedMs: Date.now() - sentAt })),
    );
  };
  const sender = setInterval(send, SEND_EVERY_MS);
  try {
    await new Promise((resolve) => setTimeout(resolve, 300));
    await failover();
    while (app.limiter.failOpen().outage) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 300));
  } finally {
    clearInterval(sender);
  }
  return Promise.all(answers);
}

/** What the test asserts: every request answered (admitted), and none waiting past the bound. */
const summary = (answers: readonly Answer[]) => ({
  answered: answers.filter(({ status }) => status === 200).length,
  waitedPastTheBound: answers.filter(({ waitedMs }) => waitedMs > LONGEST_WAIT_MS).map(({ caller, waitedMs, failedOpen }) => ({ caller, waitedMs, failedOpen })),
});

const longest = (answers: readonly Answer[]): number => Math.max(...answers.map(({ waitedMs }) => waitedMs));

/**
 * Kills, under load, the master of a caller whose master does not hold the deny list (which every
 * request reads), so the callers on the other masters show what the cluster as a whole does meanwhile.
 */
async function clusterFailover(cluster: ThrowawayRedisCluster, label: string): Promise<void> {
  const app = failoverApp(cluster.url);
  const owners = await ownersOf(cluster, CALLERS);
  const denyOwner = (await cluster.slotOwner(await cluster.keySlot(`{${app.limiter.config.prefix}:denyList}`))).id;
  const victim = CALLERS.find((caller) => owners.get(caller) !== denyOwner)!;
  const health = new ClusterStateWatch(cluster);
  let killedAt = 0;
  let promotedAt = 0;
  let killedId = '';
  const answers = await loadThrough(app, async () => {
    killedAt = Date.now();
    const { killed } = await cluster.killMasterOf(await cluster.keySlot(victim));
    promotedAt = Date.now();
    killedId = killed.id;
  });
  health.stop();
  const onKilled = answers.filter(({ caller }) => owners.get(caller) === killedId);
  const onHealthy = answers.filter(({ caller }) => owners.get(caller) !== killedId);
  const failedOpen = (sent: readonly Answer[]) => sent.filter((answer) => answer.failedOpen);
  process.stdout.write(
    `${label}: promoted after ${promotedAt - killedAt} ms (cluster_state:fail for ${health.downMs()} ms); ${answers.length} requests, longest wait ${longest(answers)} ms; ` +
      `failed open: ${failedOpen(onKilled).length} of the ${onKilled.length} on the killed master, ${failedOpen(onHealthy).length} of the ${onHealthy.length} on healthy masters ` +
      `(${failedOpen(onHealthy).filter(({ sentAt }) => health.downAt(sentAt)).length} of them sent while the cluster said cluster_state:fail)\n`,
  );
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

describeWithRedisBinary('a Sentinel primary killed under load', () => {
  const sentinel = useRedisSentinel();

  it('answers every request within the timeout, from the failure mode while the sentinels promote the replica', async () => {
    const app = failoverApp(sentinel().url);
    let killedAt = 0;
    let promotedAt = 0;
    const answers = await loadThrough(app, async () => {
      killedAt = Date.now();
      await sentinel().waitForFailover(await sentinel().killPrimary());
      promotedAt = Date.now();
    });
    expect(summary(answers)).toEqual({ answered: answers.length, waitedPastTheBound: [] });
    process.stdout.write(`sentinel failover: promoted after ${promotedAt - killedAt} ms; ${answers.length} requests, longest wait ${longest(answers)} ms, ${answers.filter(({ failedOpen }) => failedOpen).length} failed open\n`);
  }, 60_000);
});

/** Each caller's master (node ID): its counters' hash tag is the caller's identifier. */
async function ownersOf(cluster: ThrowawayRedisCluster, callers: readonly string[]): Promise<Map<string, string>> {
  const owners = new Map<string, string>();
  for (const caller of callers) owners.set(caller, (await cluster.slotOwner(await cluster.keySlot(caller))).id);
  return owners;
}

/** When a node that stays up says `cluster_state:fail`, read every 20 ms. */
class ClusterStateWatch {
  private readonly down: Array<[number, number]> = [];
  private readonly reading: NodeJS.Timeout;

  constructor(cluster: ThrowawayRedisCluster) {
    // The last node: the victim is chosen among the masters, and the replicas come after them.
    const node = cluster.nodes[cluster.nodes.length - 1];
    let downSince: number | undefined;
    this.reading = setInterval(() => {
      const at = Date.now();
      RedisClient.ask(node.url, ['CLUSTER', 'INFO']).then(
        (info) => {
          const failing = asText(info).includes('cluster_state:fail');
          if (failing && downSince === undefined) downSince = at;
          if (!failing && downSince !== undefined) {
            this.down.push([downSince, at]);
            downSince = undefined;
          }
        },
        () => undefined,
      );
    }, 20);
  }

  stop(): void {
    clearInterval(this.reading);
  }

  downAt(time: number): boolean {
    return this.down.some(([from, to]) => from <= time && time <= to);
  }

  downMs(): number {
    return this.down.reduce((sum, [from, to]) => sum + to - from, 0);
  }
}
