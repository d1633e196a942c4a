// Issue 25 finding 10: 40 requests with distinct bogus API tokens, all refused from memory, cost 40
// database reads: every bearer credential that was not a JWT was looked up. Now a credential that
// cannot be Strapi's (an API token is 256 lower-case hex characters, a users-permissions JWT three
// base64url parts starting `eyJ`) is never looked up, and one IP looks up at most
// LOOKUPS_PER_CALLER unknown API tokens per LOOKUP_PERIOD_MS (a token that verifies gives its lookup
// back). Here against stand-ins of Strapi's services that count their calls; the e2e suite
// (per-user-limits-verify-credentials.test.ts) counts the database queries of a real Strapi.
import type { Context } from 'koa';
import { credentialShape } from '../../../server/src/strapi/credential-shape';
import { LOOKUP_PERIOD_MS, LOOKUPS_PER_CALLER } from '../../../server/src/strapi/token-lookup-budget';
import { strapiCallerVerifier } from '../../../server/src/strapi/verify-caller';
import { advanceDate, fakeDateOnly } from '../../support/fake-date';

const request = (authorization: string) => ({ request: { headers: { authorization } } }) as unknown as Context;
const hexToken = (index: number) => index.toString(16).padStart(256, '0');
const VALID = 'f'.repeat(256);

function countingVerifier() {
  const calls = { lookups: 0, jwtChecks: 0 };
  const verify = strapiCallerVerifier({
    plugin: () => ({ service: () => ({ verify: async () => (calls.jwtChecks++, Promise.reject(new Error('Invalid token.'))) }) }),
    service: () => ({ hash: (key: string) => key, getByAccessKey: async (key: string) => (calls.lookups++, key === VALID ? { id: 3, kind: 'content-api', expiresAt: null } : null) }),
  });
  return { verify, calls };
}

describe('floods of bogus tokens do not reach the database', () => {
  afterEach(() => jest.useRealTimers());

  it('40 distinct tokens that cannot be Strapi\'s cost no lookup and no JWT check', async () => {
    const { verify, calls } = countingVerifier();
    const bogus = Array.from({ length: 40 }, (_, index) => [`bogus-${index}`, `${hexToken(index)}0`, hexToken(index).toUpperCase().replace(/^0/, 'A'), `a.b.${index}`, `eyJ${'a'.repeat(4096)}.b.${index}`][index % 5]);
    expect(await Promise.all(bogus.map((token) => verify(request(`Bearer ${token}`), '203.0.113.1')))).toEqual(bogus.map(() => undefined));
    expect(calls).toEqual({ lookups: 0, jwtChecks: 0 });
  });

  it(`40 distinct well-shaped API tokens from one IP cost ${LOOKUPS_PER_CALLER} lookups per period, and another IP has its own budget`, async () => {
    fakeDateOnly();
    const { verify, calls } = countingVerifier();
    const flood = (ip: string, first: number) => Promise.all(Array.from({ length: 40 }, (_, index) => verify(request(`Bearer ${hexToken(first + index)}`), ip)));
    await flood('203.0.113.1', 0);
    expect(calls.lookups).toBe(LOOKUPS_PER_CALLER);
    await flood('203.0.113.2', 100);
    expect(calls.lookups).toBe(2 * LOOKUPS_PER_CALLER);
    advanceDate(LOOKUP_PERIOD_MS);
    await flood('203.0.113.1', 200);
    expect(calls.lookups).toBe(3 * LOOKUPS_PER_CALLER);
  });

  it('a valid API token gives its lookup back, and keeps its identity from an IP whose budget a flood has spent', async () => {
    const { verify, calls } = countingVerifier();
    expect(await verify(request(`Bearer ${VALID}`), '203.0.113.9')).toEqual({ kind: 'token', id: '3' });
    await Promise.all(Array.from({ length: LOOKUPS_PER_CALLER + 5 }, (_, index) => verify(request(`Bearer ${hexToken(index)}`), '203.0.113.9')));
    expect(calls.lookups).toBe(1 + LOOKUPS_PER_CALLER);
    expect(await verify(request(`Bearer ${VALID}`), '203.0.113.9')).toEqual({ kind: 'token', id: '3' });
    expect(calls.lookups).toBe(1 + LOOKUPS_PER_CALLER);
  });

  it.each([
    ['a Strapi API token', 'api-token', 'ab'.repeat(128)],
    ['a users-permissions JWT', 'jwt', 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6MSwiaWF0IjoxNzAwMDAwMDAwLCJleHAiOjE3MDI1OTIwMDB9.c2lnbmF0dXJlLXNpZ25hdHVyZQ'],
    ['an unsigned JWT (alg none)', 'jwt', 'eyJhbGciOiJub25lIn0.eyJpZCI6MX0.'],
    ['a short hex token', undefined, '0123456789abcdef'],
    ['an API token in capitals', undefined, 'AB'.repeat(128)],
  ])('%s has the shape %s', (_case, shape, token) => {
    expect(credentialShape(token)).toBe(shape);
  });
});
