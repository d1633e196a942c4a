// Issue 34 review finding 8: on a Redis Cluster a live-limit change wrote its 16,384 copies (one per
// slot) in one batch through the request path, under its timeout and its per-master breakers. With
// `timeout: 100` the change was reported failed although every copy was written, and it opened every
// master's breaker, so requests arriving meanwhile got the failure mode. The copies are now written in
// chunks through the store's admin requester (server/src/admin-api/slot-live-limit-writes.ts), each
// versioned, so overlapping changes leave every slot with the same (the newer) limit.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { describeWithRedisCluster } from '../../support/installed-program';
import { useRedisCluster } from '../../support/redis-topologies';
import { RedisClient } from '../../fixtures/redis-client';
import { asTexts } from '../../fixtures/plain-replies';
import { limitedApp, strategy, type LimitedApp } from '../plugin/support';
import { freshPrefix } from './support';

const CALLERS = Array.from({ length: 24 }, (_, index) => `caller-${index}`);
const SEND_EVERY_MS = 5;

/** Every copy of the live limit under `prefix` on the cluster's masters, as stored. */
async function storedCopies(masterUrls: readonly string[], prefix: string): Promise<string[]> {
  const read = "local values = {} for _, key in ipairs(redis.call('KEYS', ARGV[1])) do values[#values + 1] = redis.call('GET', key) end return values";
  const perMaster = await Promise.all(masterUrls.map(async (url) => asTexts(await RedisClient.ask(url, ['EVAL', read, '0', `${prefix}:live:*:dynamic:global`]))));
  return perMaster.flat();
}

const countOf = (values: readonly string[]): Record<string, number> => values.reduce<Record<string, number>>((counts, value) => ({ ...counts, [value]: (counts[value] ?? 0) + 1 }), {});

describeWithRedisCluster('a live-limit change on a Redis Cluster', () => {
  const cluster = useRedisCluster();
  const apps: LimitedApp[] = [];
  afterEach(() => apps.splice(0).forEach((app) => app.close()));
  const app = (prefix: string): LimitedApp => {
    const opened = limitedApp({ url: cluster().url, prefix, timeout: 100, failureMode: 'open', blockedCacheSize: 0, strategy: [strategy({ identifierSource: 'header.x-caller' }, { tokens: 1000, window: '1h' })] });
    apps.push(opened);
    return opened;
  };
  const masterUrls = (): string[] => cluster().nodes.map((node) => node.url);

  it('reports success with timeout 100, writes every copy, and leaves the breakers of requests closed', async () => {
    const prefix = freshPrefix('live-change');
    const limited = app(prefix);
    const decidedByTheStore = async (): Promise<boolean[]> =>
      (await Promise.all(CALLERS.map((caller) => limited.request.get('/limited').set('x-caller', caller)))).map(({ headers }) => headers.ratelimit !== undefined);
    expect(await limited.limiter.checkStore()).toMatchObject({ ok: true });
    // Callers on every master; each master has then loaded the limit script.
    expect(await decidedByTheStore()).toEqual(CALLERS.map(() => true));
    // Requests while the change runs, for the figures printed (how many the store decided depends on
    // how busy the machine is, with a 100 ms timeout, so it is not asserted).
    const answers: Array<Promise<boolean>> = [];
    let sent = 0;
    const sender = setInterval(() => {
      const caller = CALLERS[sent++ % CALLERS.length];
      answers.push(limited.request.get('/limited').set('x-caller', caller).then(({ headers }) => headers.ratelimit === undefined));
    }, SEND_EVERY_MS);
    const delay = monitorEventLoopDelay({ resolution: 1 });
    const started = performance.now();
    let change: unknown;
    try {
      delay.enable();
      change = await limited.limiter.setLiveLimit(0, 500, 'ops').catch((failure: Error) => failure.message);
      delay.disable();
    } finally {
      clearInterval(sender);
    }
    const rightAfter = await decidedByTheStore();
    const failedOpen = (await Promise.all(answers)).filter(Boolean).length;
    process.stdout.write(`live-limit change on a 3-master Cluster: ${Math.round(performance.now() - started)} ms, longest event-loop delay ${(delay.max / 1e6).toFixed(1)} ms, ${failedOpen} of ${answers.length} requests meanwhile failed open\n`);
    // Before the fix: the change rejected with 'Redis did not answer: Command timed out' although all
    // 16,384 copies were written, the requests right after met the masters' open breakers and failed open.
    expect({ change, copies: countOf(await storedCopies(masterUrls(), prefix)), rightAfter }).toEqual({
      change: { strategy: 0, configured: 1000, live: 500 },
      copies: { 500: 16384 },
      rightAfter: CALLERS.map(() => true),
    });
    expect(await limited.limiter.setLiveLimit(0, null, 'ops')).toEqual({ strategy: 0, configured: 1000, live: null });
    expect(await storedCopies(masterUrls(), prefix)).toEqual([]);
  }, 60_000);

  it('leaves every slot with the same limit when two instances change it at once', async () => {
    const prefix = freshPrefix('live-race');
    const [first, second] = [app(prefix), app(prefix)];
    const outcomes = await Promise.allSettled([first.limiter.setLiveLimit(0, 7, 'ops'), second.limiter.setLiveLimit(0, 9, 'ops')]);
    const copies = countOf(await storedCopies(masterUrls(), prefix));
    const [winner] = Object.keys(copies);
    expect(copies).toEqual({ [winner]: 16384 });
    // The change with the newer version is written in every slot; the other one either was written
    // whole before it, or says how many copies it wrote before it was overtaken.
    const described = outcomes.map((outcome) => (outcome.status === 'fulfilled' ? 'written' : /a newer change \(version \d+\) had written some/.test(String(outcome.reason)) ? 'overtaken' : String(outcome.reason)));
    const winnerIndex = ['7', '9'].indexOf(winner);
    expect({ winner: described[winnerIndex], other: ['written', 'overtaken'].includes(described[1 - winnerIndex]) }).toEqual({ winner: 'written', other: true });
  }, 60_000);

  it('says how many copies it wrote when some slots hold a newer version, and the next change writes them all', async () => {
    const prefix = freshPrefix('live-newer');
    const limited = app(prefix);
    await limited.limiter.setLiveLimit(0, 500, 'ops');
    // Three slots written by a change numbered past the sequence (as when a failover lost the sequence key).
    const [master] = masterUrls();
    const versions = asTexts(await RedisClient.ask(master, ['KEYS', `${prefix}:live:*:dynamic:version`])).slice(0, 3);
    for (const key of versions) await RedisClient.ask(master, ['SET', key, '1000']);
    const overtaken = await limited.limiter.setLiveLimit(0, 20, 'ops').catch((failure: Error) => failure.message);
    expect({ overtaken, copies: countOf(await storedCopies(masterUrls(), prefix)) }).toEqual({
      overtaken: "wrote 16381 of the live limit's 16384 copies (one per Cluster slot): a newer change (version 1000) had written some; setting the limit again (or back to config) writes every copy",
      copies: { 500: 3, 20: 16381 },
    });
    expect(await limited.limiter.setLiveLimit(0, 30, 'ops')).toEqual({ strategy: 0, configured: 1000, live: 30 });
    expect(countOf(await storedCopies(masterUrls(), prefix))).toEqual({ 30: 16384 });
  }, 60_000);
});
