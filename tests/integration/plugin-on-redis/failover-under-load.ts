// Test support: a primary killed while requests arrive at a steady rate (an open loop, as independent
// callers would send them), from callers spread over every slot, against one limiter app. What each
// request got (its status, whether the store decided it, how long it waited), and on a Cluster which
// master owns each caller and when the cluster said `cluster_state:fail`, for the failover suites:
// a-failover-answers-every-request-within-the-timeout and
// callers-on-healthy-cluster-masters-are-decided-by-the-store-during-a-failover.
import { strategy, limitedApp, type LimitedApp } from '../plugin/support';
import { freshPrefix } from './support';
import { RedisClient } from '../../fixtures/redis-client';
import { asText } from '../../fixtures/plain-replies';
import type { ThrowawayRedisCluster } from '../../fixtures/redis-cluster';

export const TIMEOUT_MS = 500;
/** One request every this many ms: 200 requests per second. */
const SEND_EVERY_MS = 5;
const CALLERS = Array.from({ length: 24 }, (_, index) => `caller-${index}`);

export interface Answer {
  readonly caller: string;
  readonly status: number;
  /** Admitted without a decision from the store (no rate-limit headers): failed open. */
  readonly failedOpen: boolean;
  readonly sentAt: number;
  readonly waitedMs: number;
}

/** Apps a suite opens, closed after each test. */
export function failoverApps(): (url: string) => LimitedApp {
  const apps: LimitedApp[] = [];
  afterEach(() => apps.splice(0).forEach((app) => app.close()));
  return (url) => {
    const app = limitedApp({ url, prefix: freshPrefix('failover-wait'), timeout: TIMEOUT_MS, failureMode: 'open', blockedCacheSize: 0, strategy: [strategy({ identifierSource: 'header.x-caller' }, { algorithm: 'sliding-window', tokens: 100_000, window: '1h' })] });
    apps.push(app);
    return app;
  };
}

/** Sends a request every SEND_EVERY_MS, round the callers, while `failover` runs and until the app decides from the store again; every answer. */
export async function loadThrough(app: LimitedApp, failover: () => Promise<void>): Promise<Answer[]> {
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

export const longest = (answers: readonly Answer[]): number => Math.max(...answers.map(({ waitedMs }) => waitedMs));

const failedOpen = (sent: readonly Answer[]): Answer[] => sent.filter((answer) => answer.failedOpen);

/** A Cluster master killed under load: the answers of callers on it and on the healthy masters. */
export interface ClusterFailover {
  readonly answers: readonly Answer[];
  readonly onKilled: readonly Answer[];
  readonly onHealthy: readonly Answer[];
  /** The figures the docs quote, one line. */
  readonly figures: string;
}

/**
 * Kills, under load, the master of a caller whose master does not hold the deny list (which every
 * request reads), so the callers on the other masters show what the cluster as a whole does meanwhile.
 */
export async function killAClusterMasterUnderLoad(app: LimitedApp, cluster: ThrowawayRedisCluster): Promise<ClusterFailover> {
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
  const figures =
    `promoted after ${promotedAt - killedAt} ms (cluster_state:fail for ${health.downMs()} ms); ${answers.length} requests, longest wait ${longest(answers)} ms; ` +
    `failed open: ${failedOpen(onKilled).length} of the ${onKilled.length} on the killed master, ${failedOpen(onHealthy).length} of the ${onHealthy.length} on healthy masters ` +
    `(${failedOpen(onHealthy).filter(({ sentAt }) => health.downAt(sentAt)).length} of them sent while the cluster said cluster_state:fail)`;
  return { answers, onKilled, onHealthy, figures };
}

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

/** How often msUntilDecided asks again. */
const ASK_AGAIN_EVERY_MS = 50;

/**
 * Sends `caller`'s request every ASK_AGAIN_EVERY_MS until the store decides one (it carries the
 * rate-limit headers, where the failure mode `open` admits without them), for at most `withinMs`:
 * the ms that took, or undefined when none was decided (the hung-node suites).
 */
export async function msUntilDecided(app: LimitedApp, caller: string, withinMs: number): Promise<number | undefined> {
  const start = Date.now();
  while (Date.now() - start <= withinMs) {
    const { headers } = await app.request.get('/limited').set('x-caller', caller);
    if (headers.ratelimit !== undefined) return Date.now() - start;
    await new Promise((resolve) => setTimeout(resolve, ASK_AGAIN_EVERY_MS));
  }
  return undefined;
}
