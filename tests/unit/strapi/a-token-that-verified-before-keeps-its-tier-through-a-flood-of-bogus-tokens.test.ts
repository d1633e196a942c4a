// Issue 34 finding 6: after 25 bogus 256-hex API tokens from a shared IP (an office, a NAT), a
// valid full-access token from that IP was not looked up (the IP had spent its lookup budget), so
// it was treated as anonymous and limited in the IP bucket the flood had used up. Now a token that
// verified within VOUCHED_TTL_MS is looked up whatever its IP's budget, and still read again once
// its verdict expires, so a revoked token stops counting within VERDICT_TTL_MS; and past the budget
// a token is looked up when the app has a token of its hash (one read of the hashes per
// INDEX_TTL_MS), so a valid token never seen before keeps its tier too, while the flood's tokens
// cost no read. Against stand-ins of Strapi's services and database that record their reads (the
// budget's own bound: finding-10-bogus-tokens-never-reach-the-database.test.ts; in a real Strapi:
// the e2e issue-30-tiers-by-role-and-token-type.test.ts).
import type { Context } from 'koa';
import { INDEX_TTL_MS, MAX_INDEXED_TOKENS } from '../../../server/src/strapi/api-token-index';
import { LOOKUPS_PER_CALLER, VOUCHED_TTL_MS } from '../../../server/src/strapi/token-lookup-budget';
import { strapiCallerVerifier, VERDICT_TTL_MS } from '../../../server/src/strapi/verify-caller';
import { advanceDate, fakeDateOnly } from '../../support/fake-date';

const request = (authorization: string) => ({ request: { headers: { authorization } } }) as unknown as Context;
const bogusToken = (index: number) => index.toString(16).padStart(256, '0');
const VALID = 'f'.repeat(256);
const OFFICE = '198.51.100.7';
const FULL_ACCESS = { kind: 'token', id: '5', type: 'full-access' };

/**
 * Stand-ins of Strapi's token service and database. `indexReadable: false`: the read of the app's
 * token hashes fails (api-token-index.ts knows no token), so only the vouched-for path is left.
 */
function tokenStore({ indexReadable = true } = {}) {
  const valid = new Set([VALID]);
  const reads: string[] = [];
  const verify = strapiCallerVerifier({
    plugin: () => ({ service: () => ({ verify: async () => Promise.reject(new Error('Invalid token.')) }) }),
    service: () => ({
      hash: (key: string) => `hash:${key}`,
      getByAccessKey: async (hash: string) => (reads.push(hash === `hash:${VALID}` ? 'valid' : 'bogus'), valid.has(hash.slice(5)) ? { id: 5, kind: 'content-api', type: 'full-access', expiresAt: null } : null),
    }),
    db: {
      query: (uid: string) => ({
        // Which tokens the query picks is the database's to decide: the e2e suite of tiers proves it in a real Strapi.
        findMany: async (query: { limit?: number }) => {
          reads.push(`index of ${uid}, limit ${query.limit}`);
          if (!indexReadable) throw new Error('database down');
          return [...valid].map((token) => ({ accessKey: `hash:${token}` }));
        },
      }),
    },
  });
  const flood = (first: number) => Promise.all(Array.from({ length: LOOKUPS_PER_CALLER + 5 }, (_, index) => verify(request(`Bearer ${bogusToken(first + index)}`), OFFICE)));
  return { verify, reads, flood, revoke: () => valid.delete(VALID), create: () => valid.add(VALID) };
}

const INDEX_READ = `index of admin::api-token, limit ${MAX_INDEXED_TOKENS}`;
const bogusReads = (count: number) => Array.from({ length: count }, () => 'bogus');

describe('a valid API token keeps its tier through a flood of bogus tokens from its IP', () => {
  beforeEach(() => fakeDateOnly());
  afterEach(() => jest.useRealTimers());

  it('a token that verified before is looked up again from an IP whose budget the flood spends, once its verdict has expired', async () => {
    const { verify, reads, flood } = tokenStore({ indexReadable: false });
    expect(await verify(request(`Bearer ${VALID}`), '203.0.113.1')).toEqual(FULL_ACCESS);
    advanceDate(VERDICT_TTL_MS);
    await flood(0);
    expect(await verify(request(`Bearer ${VALID}`), OFFICE)).toEqual(FULL_ACCESS);
    // The flood's five tokens past the budget try the index (which cannot be read) once.
    expect(reads).toEqual(['valid', ...bogusReads(LOOKUPS_PER_CALLER), INDEX_READ, 'valid']);
  });

  it('a token that verified from the flooded IP itself keeps its tier period after period of a sustained flood', async () => {
    const { verify, flood } = tokenStore({ indexReadable: false });
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
    const { verify, flood } = tokenStore({ indexReadable: false });
    expect(await verify(request(`Bearer ${VALID}`), '203.0.113.1')).toEqual(FULL_ACCESS);
    advanceDate(VOUCHED_TTL_MS);
    await flood(0);
    expect(await verify(request(`Bearer ${VALID}`), OFFICE)).toEqual(undefined);
  });

  it('a valid token never verified before, first seen from an IP whose budget the flood spent, keeps its tier: the app has it (one read of its token hashes per period)', async () => {
    const { verify, reads, flood } = tokenStore();
    await flood(0);
    expect(await verify(request(`Bearer ${VALID}`), OFFICE)).toEqual(FULL_ACCESS);
    await flood(100);
    advanceDate(INDEX_TTL_MS);
    await flood(200);
    // Each flood's tokens past the budget cost no lookup (the index has none of them), the second
    // flood not even an index read; the third, a period later, its new budget and one index read.
    expect(reads).toEqual([...bogusReads(LOOKUPS_PER_CALLER), INDEX_READ, 'valid', ...bogusReads(LOOKUPS_PER_CALLER), INDEX_READ]);
  });

  it('a token created after the index was read is known within INDEX_TTL_MS', async () => {
    const { verify, reads, flood, revoke, create } = tokenStore();
    revoke();
    await flood(0);
    const seen = [await verify(request(`Bearer ${VALID}`), OFFICE)];
    create();
    seen.push(await verify(request(`Bearer ${VALID}`), OFFICE));
    advanceDate(INDEX_TTL_MS);
    await flood(100);
    seen.push(await verify(request(`Bearer ${VALID}`), OFFICE));
    expect([seen, reads]).toEqual([[undefined, undefined, FULL_ACCESS], [...bogusReads(LOOKUPS_PER_CALLER), INDEX_READ, ...bogusReads(LOOKUPS_PER_CALLER), INDEX_READ, 'valid']]);
  });
});
