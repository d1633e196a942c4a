// Issue 34 finding 6: after 25 bogus 256-hex API tokens from a shared IP (an office, a NAT), a
// valid full-access token from that IP was not looked up (the IP had spent its lookup budget), so
// it was treated as anonymous and limited in the IP bucket the flood had used up. Now a token that
// verified within VOUCHED_TTL_MS is looked up whatever its IP's budget, and still read again once
// its verdict expires, so a revoked token stops counting within VERDICT_TTL_MS. Against stand-ins
// of Strapi's services that count their reads (the budget's own bound is proven in
// finding-10-bogus-tokens-never-reach-the-database.test.ts).
import type { Context } from 'koa';
import { LOOKUPS_PER_CALLER, VOUCHED_TTL_MS } from '../../../server/src/strapi/token-lookup-budget';
import { strapiCallerVerifier, VERDICT_TTL_MS } from '../../../server/src/strapi/verify-caller';
import { advanceDate, fakeDateOnly } from '../../support/fake-date';

const request = (authorization: string) => ({ request: { headers: { authorization } } }) as unknown as Context;
const bogusToken = (index: number) => index.toString(16).padStart(256, '0');
const VALID = 'f'.repeat(256);
const OFFICE = '198.51.100.7';
const FULL_ACCESS = { kind: 'token', id: '5', type: 'full-access' };

function tokenStore() {
  const valid = new Set([VALID]);
  const reads: string[] = [];
  const verify = strapiCallerVerifier({
    plugin: () => ({ service: () => ({ verify: async () => Promise.reject(new Error('Invalid token.')) }) }),
    service: () => ({
      hash: (key: string) => key,
      getByAccessKey: async (key: string) => (reads.push(key === VALID ? 'valid' : 'bogus'), valid.has(key) ? { id: 5, kind: 'content-api', type: 'full-access', expiresAt: null } : null),
    }),
  });
  const flood = (first: number) => Promise.all(Array.from({ length: LOOKUPS_PER_CALLER + 5 }, (_, index) => verify(request(`Bearer ${bogusToken(first + index)}`), OFFICE)));
  return { verify, reads, flood, revoke: () => valid.delete(VALID) };
}

describe('a valid API token keeps its tier through a flood of bogus tokens from its IP', () => {
  beforeEach(() => fakeDateOnly());
  afterEach(() => jest.useRealTimers());

  it('a token that verified before is looked up again from an IP whose budget the flood spends, once its verdict has expired', async () => {
    const { verify, reads, flood } = tokenStore();
    expect(await verify(request(`Bearer ${VALID}`), '203.0.113.1')).toEqual(FULL_ACCESS);
    advanceDate(VERDICT_TTL_MS);
    await flood(0);
    expect(await verify(request(`Bearer ${VALID}`), OFFICE)).toEqual(FULL_ACCESS);
    expect(reads).toEqual(['valid', ...Array.from({ length: LOOKUPS_PER_CALLER }, () => 'bogus'), 'valid']);
  });

  it('a token that verified from the flooded IP itself keeps its tier period after period of a sustained flood', async () => {
    const { verify, flood } = tokenStore();
    expect(await verify(request(`Bearer ${VALID}`), OFFICE)).toEqual(FULL_ACCESS);
    const seen = [];
    for (let period = 1; period <= 3; period += 1) {
      advanceDate(VERDICT_TTL_MS);
      await flood(period * 100);
      seen.push(await verify(request(`Bearer ${VALID}`), OFFICE));
    }
    expect(seen).toEqual([FULL_ACCESS, FULL_ACCESS, FULL_ACCESS]);
  });

  it('a revoked token stops counting once its verdict expires, and no longer skips the budget', async () => {
    const { verify, reads, flood, revoke } = tokenStore();
    expect(await verify(request(`Bearer ${VALID}`), OFFICE)).toEqual(FULL_ACCESS);
    revoke();
    expect(await verify(request(`Bearer ${VALID}`), OFFICE)).toEqual(FULL_ACCESS);
    advanceDate(VERDICT_TTL_MS);
    expect(await verify(request(`Bearer ${VALID}`), OFFICE)).toEqual(undefined);
    advanceDate(VERDICT_TTL_MS);
    await flood(0);
    expect(await verify(request(`Bearer ${VALID}`), OFFICE)).toEqual(undefined);
    // The revoked token read twice (verified, then refused); the flood's lookups and then none for it.
    expect(reads.filter((read) => read === 'valid')).toEqual(['valid', 'valid']);
  });

  it(`a vouched token is forgotten ${VOUCHED_TTL_MS / 3_600_000} hours after it last verified`, async () => {
    const { verify, flood } = tokenStore();
    expect(await verify(request(`Bearer ${VALID}`), '203.0.113.1')).toEqual(FULL_ACCESS);
    advanceDate(VOUCHED_TTL_MS);
    await flood(0);
    expect(await verify(request(`Bearer ${VALID}`), OFFICE)).toEqual(undefined);
  });
});
