// Trust round 4, finding 3: with role tiers, a user's JWT only had its signature and expiry checked,
// so a user the admins blocked kept its role's tier (a blocked partner: 6,000 a minute) and a deleted
// user the strategy's limiter, for as long as the JWT lives (30 days by default), while Strapi itself
// answers both 401 'Invalid credentials'. The role read now reads `blocked` in the same query, and a
// blocked or missing user is a caller without a valid credential: anonymous, by IP (docs/tiers.md),
// within the role period like any other role change.
import type { Context } from 'koa';
import { ROLE_TTL_MS } from '../../../server/src/strapi/user-roles';
import { strapiCallerVerifier } from '../../../server/src/strapi/verify-caller';

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJpZCI6NDJ9.signed';
const IP = '203.0.113.1';
const request = { request: { headers: { authorization: `Bearer ${JWT}` } } } as unknown as Context;

/** A Strapi whose jwt service verifies every JWT as user 42, and whose users table holds `row` for it. */
function strapiWithUser(row: { current: { id: number; blocked?: boolean; role: { type: string } } | null }) {
  return {
    plugin: () => ({ service: () => ({ verify: async () => ({ id: 42 }) }) }),
    db: { query: () => ({ findOne: async () => row.current }) },
  };
}

afterEach(() => jest.restoreAllMocks());

describe('a blocked or deleted user\'s JWT gets no tier of a user', () => {
  it('a partner blocked by the admins is anonymous once the role period is over, and a partner again when unblocked', async () => {
    const row = { current: { id: 42, blocked: false, role: { type: 'partner' } } as { id: number; blocked?: boolean; role: { type: string } } | null };
    const verify = strapiCallerVerifier(strapiWithUser(row), { readRoles: true });
    expect(await verify(request, IP)).toEqual({ kind: 'user', id: '42', type: 'partner' });
    row.current = { id: 42, blocked: true, role: { type: 'partner' } };
    jest.spyOn(Date, 'now').mockReturnValue(Date.now() + ROLE_TTL_MS + 1);
    expect(await verify(request, IP)).toBeUndefined();
    row.current = { id: 42, blocked: false, role: { type: 'partner' } };
    jest.spyOn(Date, 'now').mockReturnValue(Date.now() + 2 * ROLE_TTL_MS + 2);
    expect(await verify(request, IP)).toEqual({ kind: 'user', id: '42', type: 'partner' });
  });

  it('a deleted user\'s JWT is anonymous, not the strategy\'s limiter', async () => {
    const verify = strapiCallerVerifier(strapiWithUser({ current: null }), { readRoles: true });
    expect(await verify(request, IP)).toBeUndefined();
  });
});
