// Issue 30 in a real Strapi 5 with users-permissions: one `user` strategy with tiers gives anonymous
// callers, the authenticated role, a custom role and read-only and full-access API tokens each their
// own limit; a forged or expired credential is anonymous; a user whose role changes gets the new
// limit within ROLE_TTL_MS and keeps its count; steady traffic of a user reads no role from the
// database; two instances sharing a store agree; a strategy on /api/auth/local and users-permissions'
// own auth limiter do not fight (the tighter answers, each with its own headers); and boot refuses a
// tier naming a role the app does not have, listing the app's roles. The usage report names the
// verified callers (username, API token name) for an admin who may read them (issue 34).
import { randomBytes } from 'node:crypto';
import { Redis } from '@upstash/redis';
import { startKvRestServer, type KvRestServer } from '../../mock';
import { ROLE_TTL_MS } from '../../server/src/strapi/user-roles';
import { INDEX_TTL_MS, MAX_INDEXED_TOKENS } from '../../server/src/strapi/api-token-index';
import { fakeDateOnly } from '../support/fake-date';
import { startStrapiChild, type StrapiChild } from '../fixtures/strapi-child';
import { windowsHaveRoomForTheSuite } from '../support/window-room';
import { adminRoleId, adminToken, createAdminUser } from '../support/admin-users';
import { sharedStoreConfig } from '../support/shared-store-config';
import { bootStrapiApp, type StrapiApp } from '../support/strapi-app';

interface ApiTokenService {
  create(attributes: object): Promise<{ id: number; accessKey: string }>;
}

interface KnexEvents {
  on(event: 'query', listener: (query: { sql: string }) => void): void;
  off(event: 'query', listener: (query: { sql: string }) => void): void;
}

interface AppServices {
  service(uid: string): ApiTokenService;
  config: { get(path: string): unknown; set(path: string, value: unknown): void };
  db: { connection: KnexEvents; query(uid: string): { update(query: object): Promise<unknown>; findOne(query: object): Promise<{ id: number } | null>; createMany(query: { data: object[] }): Promise<unknown> } };
}

const PUBLIC_API_TIERS = {
  apiTokens: { 'read-only': { tokens: 4 }, 'full-access': { tokens: 6 } },
  roles: { authenticated: { tokens: 3 }, partner: { tokens: 5 } },
  anonymous: { tokens: 2 },
};
const PING_STRATEGY = { methods: ['GET'], path: '/api/ping', identifierSource: 'user', limiter: { algorithm: 'fixed-window', tokens: 1, window: '1d' }, tiers: PUBLIC_API_TIERS };
const LOGIN_STRATEGY = { methods: ['POST'], path: '/api/auth/local', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 3, window: '1d' } };

async function statuses(sends: Array<() => PromiseLike<{ status: number }>>): Promise<number[]> {
  const seen: number[] = [];
  for (const send of sends) seen.push((await send()).status);
  return seen;
}
const times = <T>(count: number, make: () => T): T[] => Array.from({ length: count }, make);

describe('tiers in Strapi give each kind of caller its own limit', () => {
  let kv: KvRestServer;
  let app: StrapiApp;
  const tokens: Record<string, { id: number; accessKey: string }> = {};
  const services = () => app.strapi as unknown as AppServices;

  beforeAll(async () => {
    kv = await startKvRestServer();
    app = await bootStrapiApp({ proxy: { koa: true, maxIpsCount: 1 }, roles: ['partner'], config: { url: kv.url, token: kv.token, strategy: [PING_STRATEGY, LOGIN_STRATEGY] } });
    const tokenService = services().service('admin::api-token-content-api');
    for (const [name, type] of [['read', 'read-only'], ['full', 'full-access'], ['expired', 'full-access']]) {
      tokens[name] = await tokenService.create({ name, description: '', type, lifespan: null, kind: 'content-api' });
    }
    await services().db.query('admin::api-token').update({ where: { id: tokens.expired.id }, data: { expiresAt: new Date(Date.now() - 60_000) } });
  });
  windowsHaveRoomForTheSuite({ strategy: [PING_STRATEGY, LOGIN_STRATEGY] });
  afterAll(async () => {
    await app?.close();
    await kv?.close();
  });

  const ping = (ip: string, bearer?: string) => () => {
    const request = app.request.get('/api/ping').set('X-Forwarded-For', ip);
    return bearer === undefined ? request : request.set('Authorization', `Bearer ${bearer}`);
  };
  /** A user signed up through users-permissions' own route (role `authenticated`), moved to `role` when given. */
  const register = async (username: string, role?: string): Promise<{ id: number; jwt: string }> => {
    const response = await app.request.post('/api/auth/local/register').set('X-Forwarded-For', `10.9.${username.length}.1`).send({ username, email: `${username}@example.com`, password: 'Fixture-Passw0rd' });
    if (response.status !== 200) throw new Error(`Registering ${username} answered ${response.status}: ${JSON.stringify(response.body)}`);
    const user = { id: response.body.user.id as number, jwt: response.body.jwt as string };
    if (role !== undefined) await moveTo(user.id, role);
    return user;
  };
  const moveTo = async (userId: number, type: string) => {
    const role = await services().db.query('plugin::users-permissions.role').findOne({ where: { type } });
    await services().db.query('plugin::users-permissions.user').update({ where: { id: userId }, data: { role: role?.id } });
  };

  it('gives anonymous callers, the authenticated and a custom role, and read-only and full-access API tokens each their own limit, from any IP', async () => {
    const [member, partner] = [await register('member'), await register('partner1', 'partner')];
    const runs = [
      await statuses([...times(2, () => ping('203.0.113.1')), ping('203.0.113.1')]),
      await statuses(times(4, () => ping(`198.51.100.${Math.floor(Math.random() * 200)}`, member.jwt))),
      await statuses(times(6, () => ping('198.51.100.1', partner.jwt))),
      await statuses(times(5, () => ping('198.51.100.2', tokens.read.accessKey))),
      await statuses(times(7, () => ping('198.51.100.3', tokens.full.accessKey))),
    ];
    expect(runs).toEqual([[200, 200, 429], [200, 200, 200, 429], [200, 200, 200, 200, 200, 429], [200, 200, 200, 200, 429], [200, 200, 200, 200, 200, 200, 429]]);
    const policies = await Promise.all([undefined, member.jwt, partner.jwt, tokens.read.accessKey, tokens.full.accessKey].map(async (bearer) => (await ping('192.0.2.50', bearer)()).headers['ratelimit-policy']));
    expect(policies).toEqual(['2;w=86400', '3;w=86400', '5;w=86400', '4;w=86400', '6;w=86400']);
    // One key per caller, the layout unchanged: no tier in it.
    const keys = await new Redis({ url: kv.url, token: kv.token }).keys(`@cms:GET:/api/ping:user=${partner.id}:*`);
    expect(keys).toEqual([expect.stringMatching(new RegExp(`^@cms:GET:/api/ping:user=${partner.id}:fixed-window\\.1d:\\d+$`))]);
  });

  // Issue 34 (the admin page): verified callers named beside their ids, only for an admin who may read them.
  it('names the verified callers of the usage report (username, API token name) for a super admin, not for an admin who may read the usage view only', async () => {
    await ping('198.51.100.60', tokens.read.accessKey)();
    const roles = (app.strapi as unknown as { service(uid: string): unknown }).service('admin::role') as {
      create(role: object): Promise<{ id: number }>;
      assignPermissions(id: number, permissions: object[]): Promise<unknown>;
    };
    const viewer = await roles.create({ name: 'Usage reader', description: 'May read the usage view only' });
    await roles.assignPermissions(viewer.id, [{ action: 'plugin::ratelimit.read', subject: null, properties: {}, conditions: [] }]);
    await createAdminUser(app, 'names-super@fixture.test', await adminRoleId(app, 'strapi-super-admin'));
    await createAdminUser(app, 'names-reader@fixture.test', viewer.id);
    const namesSeenBy = async (email: string) => {
      const response = await app.request.get('/ratelimit/usage').set('Authorization', `Bearer ${await adminToken(app, email)}`);
      const callers = (response.body.data.strategies[0].callers as Array<{ identifier: string; name?: string }>).filter(({ identifier }) => /^(user|token)=/.test(identifier));
      return callers.map(({ identifier, name }) => `${identifier} ${name ?? '-'}`).sort();
    };
    const member = await services().db.query('plugin::users-permissions.user').findOne({ where: { username: 'member' } });
    const named = await namesSeenBy('names-super@fixture.test');
    expect([named.includes(`user=${member?.id} member`), named.includes(`token=${tokens.read.id} read`), named.includes(`token=${tokens.full.id} full`)]).toEqual([true, true, true]);
    expect(await namesSeenBy('names-reader@fixture.test')).toEqual(named.map((line) => line.replace(/ .*$/, ' -')));
  });

  // Issue 34 finding 6, as found: 25 bogus tokens spend the shared IP's lookup budget, and a valid
  // full-access token seen there for the first time was anonymous (policy 2, the IP's bucket).
  it('keeps the tier of a valid API token first seen from an IP that a flood of bogus tokens has spent its lookup budget on', async () => {
    const fresh = await services().service('admin::api-token-content-api').create({ name: 'office', description: '', type: 'full-access', lifespan: null, kind: 'content-api' });
    const bogus = times(25, () => randomBytes(128).toString('hex'));
    await Promise.all(bogus.map((token) => ping('198.51.100.77', token)()));
    const first = await ping('198.51.100.77', fresh.accessKey)();
    expect([first.status, first.headers['ratelimit-policy']]).toEqual([200, '6;w=86400']);
  });

  // Issue 34 review: the index of the app's token hashes was read in no order with expired and admin
  // tokens in it, so past MAX_INDEXED_TOKENS of them a new valid token was not indexed: anonymous
  // (before: [200, '2;w=86400']) from an IP whose lookup budget a flood had spent.
  it('keeps the tier of a new API token behind a flood when the app holds more old, expired and admin tokens than the index reads', async () => {
    const rows = (count: number, name: string, fields: object) => times(count, () => ({ name: `${name}-${randomBytes(8).toString('hex')}`, description: '', type: 'full-access', accessKey: randomBytes(64).toString('hex'), ...fields }));
    const tokensTable = services().db.query('admin::api-token');
    await tokensTable.createMany({ data: rows(MAX_INDEXED_TOKENS, 'old', { kind: 'content-api' }) });
    const fresh = await services().service('admin::api-token-content-api').create({ name: 'newest', description: '', type: 'full-access', lifespan: null, kind: 'content-api' });
    await tokensTable.createMany({ data: rows(MAX_INDEXED_TOKENS, 'expired', { kind: 'content-api', expiresAt: new Date(Date.now() - 60_000) }) });
    await tokensTable.createMany({ data: rows(MAX_INDEXED_TOKENS, 'admin', { kind: 'admin' }) });
    // Past the index's period, so this flood's budget makes it read the tokens again.
    fakeDateOnly(Date.now() + INDEX_TTL_MS + 1);
    try {
      await Promise.all(times(25, () => randomBytes(128).toString('hex')).map((token) => ping('198.51.100.78', token)()));
      const first = await ping('198.51.100.78', fresh.accessKey)();
      expect([first.status, first.headers['ratelimit-policy']]).toEqual([200, '6;w=86400']);
    } finally {
      jest.useRealTimers();
    }
  }, 120_000);

  it.each([
    ['an expired API token', 11, () => tokens.expired.accessKey],
    ['a forged JWT', 12, () => 'eyJhbGciOiJIUzI1NiJ9.eyJpZCI6MX0.c2lnbmF0dXJl'],
  ])('limits a request with %s as anonymous, by its IP (case %i)', async (_case, net, credential) => {
    expect(await statuses([...times(3, () => ping(`203.0.113.${net}`, credential())), ping(`192.0.2.${net}`, credential())])).toEqual([200, 200, 429, 200]);
  });

  it("reads a user's role once per ROLE_TTL_MS (no role query in steady traffic) and applies a promotion within it, on the count the user already has", async () => {
    const user = await register('promoted');
    const knex = services().db.connection;
    const roleQueries: string[] = [];
    const record = (query: { sql: string }) => void (/up_roles|up_users_role_lnk/.test(query.sql) && roleQueries.push(query.sql));
    let clock: jest.SpyInstance | undefined;
    try {
      const seen = await statuses([ping('198.51.100.40', user.jwt)]);
      knex.on('query', record);
      seen.push(...(await statuses(times(2, () => ping('198.51.100.40', user.jwt)))));
      const steadyQueries = roleQueries.length;
      await moveTo(user.id, 'partner');
      // Within the period the role read at the first request holds: authenticated, 3 used, refused.
      // The fixed window counts that refusal too: the counter holds 4.
      seen.push(...(await statuses([ping('198.51.100.40', user.jwt)])));
      roleQueries.splice(0);
      const realNow = Date.now.bind(Date);
      clock = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + ROLE_TTL_MS + 1);
      // Past it: partner (5) over the same counter: one more admitted, then refused.
      seen.push(...(await statuses(times(2, () => ping('198.51.100.40', user.jwt)))));
      expect([seen, steadyQueries, roleQueries.length > 0]).toEqual([[200, 200, 200, 429, 200, 429], 0, true]);
    } finally {
      knex.off('query', record);
      clock?.mockRestore();
    }
  });

  describe("beside users-permissions' own limiter on its auth routes", () => {
    const login = (ip: string) => () => app.request.post('/api/auth/local').set('X-Forwarded-For', ip).send({ identifier: 'nobody@example.com', password: 'wrong-Passw0rd' });

    // Both answer 429 as Strapi's RateLimitError with one message; the plugin's names its limit in
    // `details` and sends Retry-After, users-permissions' has empty details and no Retry-After.
    it('answers first when it is the tighter: its 429 and headers; both count the attempts it admits', async () => {
      const responses = [];
      for (const send of times(4, () => login('203.0.113.60'))) responses.push(await send());
      expect(responses.map((response) => response.status)).toEqual([400, 400, 400, 429]);
      const refused = responses[3];
      expect([refused.body.error.name, refused.body.error.details.limit, refused.headers['ratelimit-policy'], refused.headers['retry-after'] !== undefined, refused.headers['x-ratelimit-limit']]).toEqual(['RateLimitError', 3, '3;w=86400', true, undefined]);
      // Admitted attempts carry both: ours (standard) and users-permissions' (X-RateLimit-*, its default 10 a minute).
      expect([responses[0].headers['ratelimit'], responses[0].headers['x-ratelimit-limit'], responses[2].headers['x-ratelimit-remaining']]).toEqual([expect.stringMatching(/^limit=3, remaining=2, /), '10', '7']);
    });

    it("lets users-permissions answer when it is the tighter: its RateLimitError, while ours admitted and says so", async () => {
      const configured = services().config.get('plugin::users-permissions.ratelimit');
      services().config.set('plugin::users-permissions.ratelimit', { interval: { min: 5 }, max: 1 });
      try {
        const responses = [];
        for (const send of times(2, () => login('203.0.113.61'))) responses.push(await send());
        expect(responses.map((response) => response.status)).toEqual([400, 429]);
        const refused = responses[1];
        expect([refused.body.error.name, refused.body.error.details, refused.headers['ratelimit'], refused.headers['x-ratelimit-limit'], refused.headers['retry-after']]).toEqual(['RateLimitError', {}, expect.stringMatching(/^limit=3, remaining=1, /), '1', undefined]);
      } finally {
        services().config.set('plugin::users-permissions.ratelimit', configured);
      }
    });
  });
});

describe('tiers on two instances sharing a store', () => {
  let kv: KvRestServer;
  let instances: StrapiChild[] = [];
  beforeAll(async () => {
    kv = await startKvRestServer();
    const config = sharedStoreConfig(kv, { strategy: [PING_STRATEGY] });
    instances = await Promise.all([startStrapiChild({ config, roles: ['partner'] }), startStrapiChild({ config, roles: ['partner'] })]);
  }, 180_000);
  windowsHaveRoomForTheSuite({ strategy: [PING_STRATEGY] });
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    await kv?.close();
  });

  it('agree on each tier: a user registered alike on both (one id, one secret) and anonymous callers get their tier once across both', async () => {
    const jwts: string[] = [];
    for (const instance of instances) {
      const response = await fetch(`${instance.url}/api/auth/local/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'shared', email: 'shared@example.com', password: 'Fixture-Passw0rd' }) });
      jwts.push(((await response.json()) as { jwt: string }).jwt);
    }
    const send = (index: number, bearer?: string) => fetch(`${instances[index % 2].url}/api/ping`, { headers: bearer ? { authorization: `Bearer ${bearer}` } : {} }).then((response) => response.status);
    const user: number[] = [];
    for (let index = 0; index < 8; index++) user.push(await send(index, jwts[index % 2]));
    const anonymous: number[] = [];
    for (let index = 0; index < 6; index++) anonymous.push(await send(index));
    expect([user.filter((status) => status === 200).length, anonymous.filter((status) => status === 200).length]).toEqual([3, 2]);
  });
});

// In its own process: a boot that fails after the database is open leaves it open in-process.
describe('boot checks the roles tiers name', () => {
  it('refuses a tier naming a role the app does not have, listing its roles', async () => {
    const strategy = { ...PING_STRATEGY, tiers: { roles: { partnr: { tokens: 5 } } } };
    await expect(startStrapiChild({ config: { url: 'http://127.0.0.1:1', token: 't', strategy: [strategy] } })).rejects.toThrow(
      'strategy[0].tiers.roles.partnr: the app has no users-permissions role of type "partnr" (its roles: authenticated, public)',
    );
  });
});
