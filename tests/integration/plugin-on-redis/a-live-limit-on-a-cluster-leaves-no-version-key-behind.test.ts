// Issue 34 review, left over (LOW): on a Redis Cluster a live limit is kept in every slot, each
// copy beside the version of the change that wrote it, so the newer of two overlapping changes wins
// in every slot (server/src/admin-api/slot-live-limit-writes.ts). Those 16,384 version keys were
// never deleted, "Back to config" included: about 1-2 MB per strategy, forever. A version now expires
// VERSION_LIFETIME_MS after its change, once no older change can still write (the racing changes'
// test stays in a-live-limit-change-on-a-cluster-leaves-live-requests-decided). Here: right after a
// change every version key carries that expiry, so a cleared live limit leaves no key but the
// strategy's change counter, and a set one only its copies, which still apply once the versions are
// gone (removed here as their expiry would remove them, rather than waiting a day for it).
import { VERSION_LIFETIME_MS } from '../../../server/src/admin-api/slot-live-limit-writes';
import { asTexts } from '../../fixtures/plain-replies';
import { RedisClient } from '../../fixtures/redis-client';
import { describeWithRedisCluster } from '../../support/installed-program';
import { useRedisCluster } from '../../support/redis-topologies';
import { limitedApp, strategy, type LimitedApp } from '../plugin/support';
import { freshPrefix } from './support';

/** The strategy's live-limit scope under `prefix` (docs/live-limits.md). */
const scopeOf = (prefix: string): string => `${prefix}:live:GET:/limited:fixed-window.1h`;

describeWithRedisCluster('a live limit on a Redis Cluster', () => {
  const cluster = useRedisCluster();
  const apps: LimitedApp[] = [];
  afterEach(() => apps.splice(0).forEach((app) => app.close()));
  const app = (prefix: string): LimitedApp => {
    const opened = limitedApp({ url: cluster().url, prefix, strategy: [strategy({ identifierSource: 'header.x-caller' }, { tokens: 1000 })] });
    apps.push(opened);
    return opened;
  };

  /** Per master, for the keys of `pattern`: each key and its PTTL (-1: no expiry), flattened. */
  async function keysWithExpiry(pattern: string): Promise<Array<[string, number]>> {
    const read = "local found = {} for _, key in ipairs(redis.call('KEYS', ARGV[1])) do found[#found + 1] = key found[#found + 1] = tostring(redis.call('PTTL', key)) end return found";
    const perMaster = await Promise.all(cluster().nodes.map(async (node) => asTexts(await RedisClient.ask(node.url, ['EVAL', read, '0', pattern]))));
    return perMaster.flatMap((flat) => Array.from({ length: flat.length / 2 }, (_, index): [string, number] => [flat[2 * index], Number(flat[2 * index + 1])]));
  }

  /**
   * How many keys of each kind are under the strategy's scope, whether every version key expires
   * within VERSION_LIFETIME_MS.
   */
  async function leftUnder(prefix: string): Promise<{ copies: number; versions: number; versionsExpiring: boolean; others: string[] }> {
    const keys = await keysWithExpiry(`${scopeOf(prefix)}:*`);
    const versions = keys.filter(([key]) => key.endsWith(':dynamic:version'));
    return {
      copies: keys.filter(([key]) => key.endsWith(':dynamic:global')).length,
      versions: versions.length,
      versionsExpiring: versions.every(([, pttl]) => pttl > 0 && pttl <= VERSION_LIFETIME_MS),
      others: keys.map(([key]) => key).filter((key) => !key.endsWith(':dynamic:global') && !key.endsWith(':dynamic:version')),
    };
  }

  it('gives every version an expiry, so a cleared limit leaves only its change counter and a set one only its copies, which apply alone', async () => {
    const [cleared, kept] = [freshPrefix('live-cleared'), freshPrefix('live-kept')];
    const [clearing, keeping] = [app(cleared), app(kept)];
    expect(await clearing.limiter.setLiveLimit(0, 500, 'ops')).toEqual({ strategy: 0, configured: 1000, live: 500 });
    expect(await clearing.limiter.setLiveLimit(0, null, 'ops')).toEqual({ strategy: 0, configured: 1000, live: null });
    expect(await keeping.limiter.setLiveLimit(0, 500, 'ops')).toEqual({ strategy: 0, configured: 1000, live: 500 });
    const counter = (prefix: string): string[] => [`${scopeOf(prefix)}:dynamic:sequence`];
    const rightAfter = [await leftUnder(cleared), await leftUnder(kept)];
    // Before the fix: 16,384 version keys each, none expiring (PTTL -1).
    expect(rightAfter).toEqual([
      { copies: 0, versions: 16384, versionsExpiring: true, others: counter(cleared) },
      { copies: 16384, versions: 16384, versionsExpiring: true, others: counter(kept) },
    ]);
    // What the versions' expiry does, at once: the copies of the set limit stay alone.
    const removeVersions = "for _, key in ipairs(redis.call('KEYS', ARGV[1])) do redis.call('DEL', key) end return 0";
    await Promise.all(cluster().nodes.map((node) => RedisClient.ask(node.url, ['EVAL', removeVersions, '0', `${scopeOf(kept)}:*:dynamic:version`])));
    expect(await leftUnder(kept)).toEqual({ copies: 16384, versions: 0, versionsExpiring: true, others: counter(kept) });
    // The copies left without versions still apply.
    expect((await keeping.request.get('/limited').set('x-caller', 'someone')).headers['ratelimit-policy']).toEqual('500;w=3600');
  }, 60_000);
});
