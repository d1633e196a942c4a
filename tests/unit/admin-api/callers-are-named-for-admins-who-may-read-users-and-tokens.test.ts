// Issue 34 (the admin page, tried as a new user would): verified callers showed only as `user=1` or
// `token=5`. Now the usage report names them (the username, the API token's name) for an admin who
// may read users-permissions users or API tokens, with one query per kind and report whatever the
// number of callers; to an admin without that permission the ids stay bare and nothing is read.
// Through the usage controller and the Strapi name reader, against a stand-in of Strapi's database
// that records its queries.
import type { Context } from 'koa';
import { READ_API_TOKENS, READ_USERS } from '../../../server/src/admin-api/caller-names';
import { usageController, type UsageSource } from '../../../server/src/admin-api/controllers';
import type { CallerCounter, StrategyUsage, UsageReport } from '../../../server/src/admin-api/usage-types';
import { strapiCallerNames } from '../../../server/src/strapi/caller-names';

const caller = (identifier: string): CallerCounter => ({ identifier, method: 'GET', used: 1, remaining: 1, limit: 2, reset: 0, blocked: false });
const IDENTIFIERS = ['user=1', 'token=5', '203.0.113.9', 'user=2', 'user=404', 'user=x'];

function report(): UsageReport {
  const strategy = (index: number, identifiers: string[]): StrategyUsage => ({
    index, methods: ['GET'], path: '*', algorithm: 'fixed-window', tokens: 2, window: '1m', identifierSource: 'user', debug: false, mode: 'enforce',
    runtimeChangeable: ['tokens'], configOnly: [], liveTokens: null, totalCallers: identifiers.length, totalExact: true, blockedCallers: 0, callers: identifiers.map(caller),
  });
  return { enabled: true, store: { kind: 'embedded' }, prefix: '@cms', analyticsEnabled: false, generatedAt: 0, failOpen: { admitted: 0, outage: false }, strategies: [strategy(0, IDENTIFIERS), strategy(1, ['user=1'])] };
}

const ROWS: Record<string, Array<Record<string, unknown>>> = {
  'plugin::users-permissions.user': [{ id: 1, username: 'alice' }, { id: 2, username: 'bob' }],
  'admin::api-token': [{ id: 5, name: 'mobile app' }],
};

async function namesSeenBy(allowed: readonly string[]) {
  const queries: Array<[string, unknown]> = [];
  const db = {
    query: (uid: string) => ({
      findMany: async (query: { where: { id: { $in: number[] } } }) => (queries.push([uid, query]), ROWS[uid].filter((row) => query.where.id.$in.includes(row.id as number))),
    }),
  };
  const source = { readUsage: async () => report() } as unknown as UsageSource;
  const userAbility = { can: (action: string, subject?: string, field?: string) => allowed.includes([action, subject, field].filter(Boolean).join(' ')) };
  const ctx = { query: {}, state: { userAbility } } as unknown as Context;
  await usageController(() => source, strapiCallerNames({ db })).read(ctx);
  const { data } = ctx.body as { data: UsageReport };
  return { names: data.strategies.map((strategy) => strategy.callers.map(({ identifier, name }) => (name === undefined ? identifier : `${identifier} ${name}`))), queries };
}

const USERS = READ_USERS.join(' ');

describe('callers are named for admins who may read users and tokens', () => {
  it('an admin who may read both sees usernames and token names, read with one query per kind', async () => {
    expect(await namesSeenBy([USERS, READ_API_TOKENS])).toEqual({
      names: [['user=1 alice', 'token=5 mobile app', '203.0.113.9', 'user=2 bob', 'user=404', 'user=x'], ['user=1 alice']],
      queries: [
        ['plugin::users-permissions.user', { select: ['id', 'username'], where: { id: { $in: [1, 2, 404] } } }],
        ['admin::api-token', { select: ['id', 'name'], where: { id: { $in: [5] } } }],
      ],
    });
  });

  it('an admin who may read users only sees no token name, and no token is read', async () => {
    const { names, queries } = await namesSeenBy([USERS]);
    expect([names[0], queries.map(([uid]) => uid)]).toEqual([['user=1 alice', 'token=5', '203.0.113.9', 'user=2 bob', 'user=404', 'user=x'], ['plugin::users-permissions.user']]);
  });

  it('an admin who may read neither sees bare ids, and nothing is read', async () => {
    expect(await namesSeenBy([])).toEqual({ names: [IDENTIFIERS, ['user=1']], queries: [] });
  });
});
