// `identifierSource: 'user'` in a real Strapi: a request with a valid API token is limited as
// `token=<id>`, one with a valid users-permissions JWT (registered through that plugin's own routes)
// as `user=<id>`, from whatever IP they come; a request with no credential, an unknown, expired or
// forged one is limited by its IP. Credentials are verified with Strapi's own services.
import { Redis } from '@upstash/redis';
import { SignJWT } from 'jose';
import { startKvRestServer, type KvRestServer } from '../../mock';
import { LOOKUPS_PER_CALLER } from '../../server/src/strapi/token-lookup-budget';
import { VERDICT_TTL_MS } from '../../server/src/strapi/verify-caller';
import { bootStrapiApp, type StrapiApp } from '../support/strapi-app';
import { windowsHaveRoomForTheSuite } from '../support/window-room';

interface ApiTokenService {
  create(attributes: object): Promise<{ id: number; accessKey: string }>;
}

interface JwtService {
  issue(payload: object, options?: object): string;
}

interface KnexEvents {
  on(event: 'query', listener: (query: { sql: string }) => void): void;
  off(event: 'query', listener: (query: { sql: string }) => void): void;
}

interface RegisteredUser {
  readonly id: number;
  readonly jwt: string;
}

const STRATEGY = [{ methods: ['GET'], path: '/api/ping', identifierSource: 'user', limiter: { algorithm: 'fixed-window', tokens: 2, window: '1h' } }];

describe('identifierSource user:', () => {
  let kv: KvRestServer;
  let app: StrapiApp;
  const tokens: Record<string, { id: number; accessKey: string }> = {};

  beforeAll(async () => {
    kv = await startKvRestServer();
    app = await bootStrapiApp({
      proxy: { koa: true, maxIpsCount: 1 },
      config: {
        url: kv.url,
        token: kv.token,
        strategy: STRATEGY,
      },
    });
    const strapi = app.strapi as unknown as { service(uid: string): ApiTokenService; db: { query(uid: string): { update(query: object): Promise<unknown> } } };
    const service = strapi.service('admin::api-token-content-api');
    for (const name of ['valid', 'expired']) tokens[name] = await service.create({ name, description: '', type: 'read-only', lifespan: null, kind: 'content-api' });
    await strapi.db.query('admin::api-token').update({ where: { id: tokens.expired.id }, data: { expiresAt: new Date(Date.now() - 60_000) } });
  });
  windowsHaveRoomForTheSuite({ strategy: STRATEGY });
  afterAll(async () => {
    await app?.close();
    await kv?.close();
  });

  const ping = (ip: string, authorization?: string) => {
    const request = app.request.get('/api/ping').set('X-Forwarded-For', ip);
    return authorization ? request.set('Authorization', authorization) : request;
  };
  const statuses = async (sends: Array<() => PromiseLike<{ status: number }>>) => {
    const seen: number[] = [];
    for (const send of sends) seen.push((await send()).status);
    return seen;
  };
  const keyIdentifiers = async (pattern: string) => {
    const keys = await new Redis({ url: kv.url, token: kv.token }).keys(`@cms:GET:/api/ping:${pattern}`);
    return keys.map((key) => key.split(':')[3]);
  };
  /** A user signed up through users-permissions' own route, with the JWT it answers. */
  const register = async (username: string): Promise<RegisteredUser> => {
    const response = await app.request.post('/api/auth/local/register').send({ username, email: `${username}@example.com`, password: 'Fixture-Passw0rd' });
    if (response.status !== 200) throw new Error(`Registering ${username} answered ${response.status}: ${JSON.stringify(response.body)}`);
    return { id: response.body.user.id, jwt: response.body.jwt };
  };
  const userServices = () => app.strapi as unknown as {
    plugin(name: string): { service(name: string): JwtService };
    config: { set(path: string, value: unknown): void };
    db: { query(uid: string): { update(query: object): Promise<unknown>; delete(query: object): Promise<unknown> } };
  };

  it('limits a valid API token as one caller across IPs, under token=<id>', async () => {
    const bearer = `Bearer ${tokens.valid.accessKey}`;
    expect(await statuses([() => ping('198.51.100.1', bearer), () => ping('198.51.100.2', bearer), () => ping('198.51.100.3', bearer)])).toEqual([200, 200, 429]);
    expect(await keyIdentifiers('token=*')).toEqual([`token=${tokens.valid.id}`]);
  });

  it.each([
    ['no credential', 1, undefined],
    ['an unknown API token', 2, 'Bearer 0123456789abcdef'],
    ['an expired API token', 3, 'expired'],
    ['a forged JWT', 4, 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJpZCI6MX0.c2lnbmF0dXJl'],
  ])('limits a request with %s by its IP (case %i)', async (_case, net, credential) => {
    const authorization = credential === 'expired' ? `Bearer ${tokens.expired.accessKey}` : credential;
    const [ip, otherIp] = [`203.0.113.${net}`, `192.0.2.${net}`];
    expect(await statuses([() => ping(ip, authorization), () => ping(ip, authorization), () => ping(ip, authorization), () => ping(otherIp, authorization)])).toEqual([200, 200, 429, 200]);
  });

  // Issue 25 finding 10: each distinct bogus token was looked up in the database, even on a request
  // the block cache refuses. Counted here as the queries that read API tokens.
  it('issue 25 finding 10: 40 requests refused from memory with distinct bogus tokens cost no database query, 40 with distinct well-shaped ones at most LOOKUPS_PER_CALLER lookups and one read of the token hashes', async () => {
    const knex = (app.strapi as unknown as { db: { connection: KnexEvents } }).db.connection;
    const tokenQueries: string[] = [];
    const record = (query: { sql: string }) => void (/api_tokens/.test(query.sql) && tokenQueries.push(query.sql));
    knex.on('query', record);
    try {
      const ip = '203.0.113.40';
      expect(await statuses([() => ping(ip), () => ping(ip), () => ping(ip)])).toEqual([200, 200, 429]);
      const refused = Array.from({ length: 40 }, () => 429);
      expect(await statuses(Array.from({ length: 40 }, (_, index) => () => ping(ip, `Bearer bogus-token-${index}`)))).toEqual(refused);
      expect(tokenQueries).toEqual([]);
      // One lookup of an unknown token from another IP: how many queries a lookup makes.
      await ping('203.0.113.41', `Bearer ${'e'.repeat(256)}`);
      const perLookup = tokenQueries.splice(0).length;
      expect(perLookup).toBeGreaterThan(0);
      expect(await statuses(Array.from({ length: 40 }, (_, index) => () => ping(ip, `Bearer ${index.toString(16).padStart(256, '0')}`)))).toEqual(refused);
      // The 20 past the budget: one read of the app's token hashes (api-token-index.ts, issue 34
      // finding 6), which has none of them, and no lookup.
      const hashReads = tokenQueries.filter((sql) => /^select [`"]t0[`"]\.[`"]access_key[`"] from [`"]strapi_api_tokens[`"]/.test(sql));
      expect([tokenQueries.length, hashReads.length]).toEqual([LOOKUPS_PER_CALLER * perLookup + 1, 1]);
    } finally {
      knex.off('query', record);
    }
  });

  it('limits a valid users-permissions JWT as user=<id> across IPs, on a budget of its own beside its IP\'s', async () => {
    const alice = await register('alice');
    const bearer = `Bearer ${alice.jwt}`;
    expect(await statuses([
      () => ping('198.51.100.11', bearer), () => ping('198.51.100.12', bearer), () => ping('198.51.100.13', bearer),
      () => ping('198.51.100.11'), () => ping('198.51.100.11'), () => ping('198.51.100.11'),
    ])).toEqual([200, 200, 429, 200, 200, 429]);
    expect(await keyIdentifiers('user=*')).toEqual([`user=${alice.id}`]);
  });

  it.each([
    ['expired JWT', 11, (user: RegisteredUser) => userServices().plugin('users-permissions').service('jwt').issue({ id: user.id, iat: Math.floor(Date.now() / 1000) - 3600 }, { expiresIn: '1s' })],
    ['JWT signed with another secret', 12, (user: RegisteredUser) => new SignJWT({ id: user.id }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().sign(new TextEncoder().encode('not-the-app-secret'))],
    ['unsigned JWT (alg none)', 13, (user: RegisteredUser) => `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ id: user.id })}.`],
    ['real JWT with its payload changed to name another user', 14, (user: RegisteredUser) => [user.jwt.split('.')[0], base64url({ id: user.id + 1000 }), user.jwt.split('.')[2]].join('.')],
  ])('limits a registered user\'s %s by its IP (case %i)', async (_case, net, forge) => {
    const authorization = `Bearer ${await forge(await register(`forged${net}`))}`;
    const [ip, otherIp] = [`203.0.113.${net}`, `192.0.2.${net}`];
    expect(await statuses([() => ping(ip, authorization), () => ping(ip, authorization), () => ping(ip, authorization), () => ping(otherIp, authorization)])).toEqual([200, 200, 429, 200]);
  });

  // users-permissions' `jwt.verify` (the default `legacy-support` mode) checks the signature and the
  // expiry only; Strapi's authentication refuses a blocked or deleted user afterwards. The limiter
  // keeps that user's budget: one budget wherever such a JWT comes from, and no database read.
  it.each([
    ['blocked', (user: RegisteredUser) => userServices().db.query('plugin::users-permissions.user').update({ where: { id: user.id }, data: { blocked: true } })],
    ['deleted', (user: RegisteredUser) => userServices().db.query('plugin::users-permissions.user').delete({ where: { id: user.id } })],
  ])('keeps limiting the JWT of a %s user as user=<id>, which Strapi itself refuses', async (state, change) => {
    const user = await register(`${state}-user`);
    const bearer = `Bearer ${user.jwt}`;
    expect((await app.request.get('/api/users/me').set('Authorization', bearer)).status).toBe(200);
    await change(user);
    expect((await app.request.get('/api/users/me').set('Authorization', bearer)).status).toBe(401);
    expect(await statuses([() => ping('198.51.100.21', bearer), () => ping('198.51.100.22', bearer), () => ping('198.51.100.23', bearer)])).toEqual([200, 200, 429]);
    expect(await keyIdentifiers(`user=${user.id}:*`)).toEqual([`user=${user.id}`]);
  });

  // In `jwtManagement: 'refresh'` mode users-permissions' verify reads the user (the mode is read on
  // every call, so the test switches it at run time instead of booting a second app).
  it('limits a deleted user\'s access token by IP when users-permissions runs in refresh mode, whose verify reads the user', async () => {
    userServices().config.set('plugin::users-permissions.jwtManagement', 'refresh');
    let clock: jest.SpyInstance | undefined;
    try {
      const user = await register('refresh-mode-user');
      const bearer = `Bearer ${user.jwt}`;
      expect(await statuses([() => ping('198.51.100.31', bearer), () => ping('198.51.100.32', bearer), () => ping('198.51.100.33', bearer)])).toEqual([200, 200, 429]);
      await userServices().db.query('plugin::users-permissions.user').delete({ where: { id: user.id } });
      // The plugin remembers a credential's verdict for VERDICT_TTL_MS (a flood of one credential
      // costs one verification per period): the deletion counts once that has passed.
      const realNow = Date.now.bind(Date);
      clock = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + VERDICT_TTL_MS + 1);
      expect(await statuses([() => ping('203.0.113.31', bearer), () => ping('203.0.113.31', bearer), () => ping('203.0.113.31', bearer), () => ping('192.0.2.31', bearer)])).toEqual([200, 200, 429, 200]);
    } finally {
      // Only this clock: the app's log recorder (strapi-app.ts) stays in place until the app closes.
      clock?.mockRestore();
      userServices().config.set('plugin::users-permissions.jwtManagement', 'legacy-support');
    }
  });
});

function base64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}
