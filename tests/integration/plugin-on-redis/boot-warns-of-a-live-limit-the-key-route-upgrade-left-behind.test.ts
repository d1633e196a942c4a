// Issue 34 review, left over (LOW): keys now carry a path strategy's canonical route
// (`/api/articles/%3A` for `/api/Articles/:id`) where they carried the path as written, so a live
// limit set before that upgrade sits at a key nothing reads and the strategy silently applies its
// configured tokens again; docs/limiting.md said so, nothing at boot did. Boot now reads, in one
// MGET, the old and the canonical key of each strategy whose spelling changed, and warns once per
// strategy whose old key holds a value with no canonical key beside it. On a real Redis over
// redis:// and on a 3-master Cluster, where a live limit is copied into every slot and boot reads the
// copies in slot 0. The old keys are written here as the earlier release wrote them.
import strapiServer from '../../../strapi-server';
import { slotTag } from '../../../server/src/config/cluster-slots';
import { RedisClient } from '../../fixtures/redis-client';
import { fakeStrapi } from '../../support/fake-strapi';
import { describeWithRedisCluster, describeWithRedisOfTheRun } from '../../support/installed-program';
import { useRedisCluster } from '../../support/redis-topologies';
import { freshPrefix } from './support';

/** A strategy whose path is spelt otherwise than its canonical route, and one spelt canonically. */
const strategies = [
  { methods: ['GET'], path: '/api/Articles/:id', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 10, window: '10s' } },
  { methods: ['GET'], path: '/api/tags', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 20, window: '10s' } },
];

/** The live-limit scopes of the two strategies: the first as the earlier release spelt it and as it is spelt now, the second's (unchanged). */
const scopes = (prefix: string) => ({
  old: `${prefix}:live:GET:/api/Articles/%3Aid:fixed-window.10s`,
  canonical: `${prefix}:live:GET:/api/articles/%3A:fixed-window.10s`,
  unchanged: `${prefix}:live:GET:/api/tags:fixed-window.10s`,
});

/** A GraphQL strategy at an endpoint spelt otherwise than its canonical form (the GraphQL plugin's `endpoint`). */
const graphqlStrategies = [{ graphql: { mutation: ['login'] }, identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 5, window: '1m' } }];
const GRAPHQL_PLUGIN = { endpoint: '/GraphQL/' };

/** What a boot on `url` with `prefix` warns. */
async function bootWarnings(url: string, prefix: string, strategy: readonly object[] = strategies): Promise<string[]> {
  const { strapi, lines } = fakeStrapi({ 'plugin::ratelimit': { url, prefix, strategy }, 'plugin::graphql': GRAPHQL_PLUGIN, middlewares: [] });
  await strapiServer.bootstrap({ strapi });
  strapiServer.destroy({ strapi });
  return lines.warn;
}

const warning = (oldKey: string, copies = ''): string =>
  `[ratelimit] strategy[0] (GET /api/Articles/:id) has a live limit at ${oldKey}${copies}, its key before keys carried the canonical route, which is no longer read: ` +
  'the strategy applies its configured 10 tokens. Set the live limit again from the admin panel (Rate limit page, "Change limit") if it is still wanted, ' +
  'then delete the old key, which nothing reads (docs/limiting.md: upgrading from a release that keyed the path as written)';

describeWithRedisOfTheRun('boot, on Redis over redis://', () => {
  const url = (): string => process.env.REDIS_URL!;
  const set = (key: string, value: string) => RedisClient.ask(url(), ['SET', key, value]);
  const liveKey = (scope: string): string => `${scope}:dynamic:global`;

  it('warns once, naming the strategy and its old key, when a live limit is stored only under the old spelling of its route', async () => {
    const prefix = freshPrefix('old-route');
    const { old, unchanged } = scopes(prefix);
    await set(liveKey(old), '50');
    await set(liveKey(unchanged), '5');
    expect(await bootWarnings(url(), prefix)).toEqual([warning(liveKey(old))]);
  });

  it('warns of a GraphQL strategy\'s live limit stored only under the endpoint as written (review of this stop: GraphQL strategies were never checked)', async () => {
    const prefix = freshPrefix('old-endpoint');
    const old = liveKey(`${prefix}:live:ALL:/GraphQL/#mutation(login):fixed-window.1m`);
    await set(old, '2');
    const warnings = await bootWarnings(url(), prefix, graphqlStrategies);
    expect(warnings.filter((line) => line.includes('live limit'))).toEqual([
      `[ratelimit] strategy[0] (ALL /GraphQL/#mutation(login)) has a live limit at ${old}, its key before keys carried the canonical route, which is no longer read: ` +
        'the strategy applies its configured 5 tokens. Set the live limit again from the admin panel (Rate limit page, "Change limit") if it is still wanted, ' +
        'then delete the old key, which nothing reads (docs/limiting.md: upgrading from a release that keyed the path as written)',
    ]);
  });

  it('says nothing when the store holds no live limit under an old spelling, or the limit was set again under the canonical one', async () => {
    const none = freshPrefix('old-route-none');
    const setAgain = freshPrefix('old-route-again');
    await set(liveKey(scopes(setAgain).old), '50');
    await set(liveKey(scopes(setAgain).canonical), '60');
    expect([await bootWarnings(url(), none), await bootWarnings(url(), setAgain)]).toEqual([[], []]);
  });
});

describeWithRedisCluster('boot, on a Redis Cluster', () => {
  const cluster = useRedisCluster();
  /** A scope's copy in slot 0, the one boot reads, written on the master that owns it. */
  const copyInSlotZero = (scope: string): string => `${scope}:{${slotTag(0)}}:dynamic:global`;
  const setInSlotZero = async (key: string, value: string) => RedisClient.ask((await cluster().slotOwner(0)).url, ['SET', key, value]);

  it('warns once, naming the old key\'s copy in slot 0, when a live limit is stored only under the old spelling of its route', async () => {
    const prefix = freshPrefix('old-route');
    const { old } = scopes(prefix);
    await setInSlotZero(copyInSlotZero(old), '50');
    expect(await bootWarnings(cluster().url, prefix)).toEqual([warning(copyInSlotZero(old), ` (one of its 16,384 copies, one per Cluster slot: the keys beginning with ${old}:{)`)]);
  });

  it('says nothing when the store holds no live limit under an old spelling, or the limit was set again under the canonical one', async () => {
    const none = freshPrefix('old-route-none');
    const setAgain = freshPrefix('old-route-again');
    await setInSlotZero(copyInSlotZero(scopes(setAgain).old), '50');
    await setInSlotZero(copyInSlotZero(scopes(setAgain).canonical), '60');
    expect([await bootWarnings(cluster().url, none), await bootWarnings(cluster().url, setAgain)]).toEqual([[], []]);
  });
});
