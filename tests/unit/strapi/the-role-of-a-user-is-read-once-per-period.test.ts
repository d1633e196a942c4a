// Issue 30, the Strapi side of tiers without a Strapi: a verified user's role type is read with one
// query per user and ROLE_TTL_MS however many requests it sends (a role change applies after it), a
// failed read is not remembered, an API token carries its type from its record, and boot refuses a
// tier naming a role the app does not have, listing the app's roles.
import type { Context } from 'koa';
import { refuseUnknownRoles } from '../../../server/src/strapi/role-check';
import { ROLE_TTL_MS } from '../../../server/src/strapi/user-roles';
import { strapiCallerVerifier } from '../../../server/src/strapi/verify-caller';

const GOOD_JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJpZCI6NDJ9.good';
const API_TOKEN = 'a'.repeat(256);
const IP = '203.0.113.1';
const request = (token: string) => ({ request: { headers: { authorization: `Bearer ${token}` } } }) as unknown as Context;

function fakeStrapi(role: { type: string | Error }) {
  const queries: object[] = [];
  const strapi = {
    plugin: () => ({ service: () => ({ verify: async () => ({ id: 42 }) }) }),
    service: () => ({ hash: (key: string) => key, getByAccessKey: async (key: string) => (key === API_TOKEN ? { id: 9, kind: 'content-api', type: 'read-only', expiresAt: null } : null) }),
    db: {
      query: (uid: string) => ({
        findOne: async (query: object) => {
          queries.push({ uid, ...query });
          if (role.type instanceof Error) throw role.type;
          return { id: 42, role: { type: role.type } };
        },
      }),
    },
  };
  return { strapi, queries };
}

afterEach(() => jest.restoreAllMocks());

describe('the role of a verified user is read once per period', () => {
  it('is read with one query per user and period under a flood, and a changed role applies once the period is over', async () => {
    const role = { type: 'authenticated' as string | Error };
    const { strapi, queries } = fakeStrapi(role);
    const verify = strapiCallerVerifier(strapi, { readRoles: true });
    const flood = () => Promise.all(Array.from({ length: 50 }, () => verify(request(GOOD_JWT), IP)));
    expect(new Set((await flood()).map((caller) => caller?.type))).toEqual(new Set(['authenticated']));
    role.type = 'partner';
    expect(new Set((await flood()).map((caller) => caller?.type))).toEqual(new Set(['authenticated']));
    expect(queries).toEqual([{ uid: 'plugin::users-permissions.user', where: { id: '42' }, select: ['id', 'blocked'], populate: { role: { select: ['type'] } } }]);
    const later = Date.now() + ROLE_TTL_MS + 1;
    jest.spyOn(Date, 'now').mockReturnValue(later);
    expect(await verify(request(GOOD_JWT), IP)).toEqual({ kind: 'user', id: '42', type: 'partner' });
    expect(queries).toHaveLength(2);
  });

  it('is not remembered when its read fails: the user keeps user=<id> with no tier, and the next request reads again', async () => {
    const role = { type: new Error('database down') as string | Error };
    const { strapi, queries } = fakeStrapi(role);
    const verify = strapiCallerVerifier(strapi, { readRoles: true });
    expect(await verify(request(GOOD_JWT), IP)).toEqual({ kind: 'user', id: '42' });
    role.type = 'partner';
    expect(await verify(request(GOOD_JWT), IP)).toEqual({ kind: 'user', id: '42', type: 'partner' });
    expect(queries).toHaveLength(2);
  });

  it('is never read when no tier names roles; an API token carries its type from its record', async () => {
    const { strapi, queries } = fakeStrapi({ type: 'authenticated' });
    const verify = strapiCallerVerifier(strapi);
    expect([await verify(request(GOOD_JWT), IP), await verify(request(API_TOKEN), IP)]).toEqual([{ kind: 'user', id: '42' }, { kind: 'token', id: '9', type: 'read-only' }]);
    expect(queries).toEqual([]);
  });
});

describe('boot checks the roles tiers name', () => {
  const strategy = (roles: Record<string, { tokens: number }>) => ({ methods: ['GET' as const], path: '/api/x' as const, identifierSource: 'user' as const, limiter: { algorithm: 'fixed-window' as const, tokens: 1, window: '1m' as const }, tiers: { roles } });
  const appWithRoles = (types: string[]) => ({
    plugin: () => ({ service: () => undefined }),
    db: { query: () => ({ findMany: async () => types.map((type) => ({ type })) }) },
  });

  it('refuses a role the app does not have, naming the field and listing the app\'s roles', async () => {
    await expect(refuseUnknownRoles(appWithRoles(['public', 'authenticated', 'partner']), { strategy: [strategy({ authenticated: { tokens: 5 } }), strategy({ partnr: { tokens: 5 } })] })).rejects.toEqual(
      expect.objectContaining({
        code: 'ERR_RATELIMIT_CONFIG',
        problems: ['strategy[1].tiers.roles.partnr: the app has no users-permissions role of type "partnr" (its roles: authenticated, partner, public)'],
      }),
    );
  });

  it("checks a fresh database, whose roles users-permissions has not created yet, against the two it will create", async () => {
    await expect(refuseUnknownRoles(appWithRoles([]), { strategy: [strategy({ authenticated: { tokens: 5 } })] })).resolves.toBeUndefined();
    await expect(refuseUnknownRoles(appWithRoles([]), { strategy: [strategy({ partner: { tokens: 5 } })] })).rejects.toEqual(
      expect.objectContaining({ problems: ['strategy[0].tiers.roles.partner: the app has no users-permissions role of type "partner" (its roles: authenticated, public)'] }),
    );
  });

  it('accepts roles the app has, and refuses any role tier in an app without users-permissions', async () => {
    await expect(refuseUnknownRoles(appWithRoles(['public', 'authenticated']), { strategy: [strategy({ authenticated: { tokens: 5 } })] })).resolves.toBeUndefined();
    await expect(refuseUnknownRoles({ plugin: () => undefined }, { strategy: [strategy({ authenticated: { tokens: 5 } })] })).rejects.toEqual(
      expect.objectContaining({ problems: ['strategy[0].tiers.roles.authenticated: a role tier needs the users-permissions plugin, which this app does not have'] }),
    );
  });
});
