// Issue 30: tiers on one `user` strategy, through the plugin's Koa middleware with a fake verifier,
// against the real key-value REST server (memory engine) with the real @upstash clients. Each kind
// of caller gets its tier's limit and headers; a caller no tier names gets the strategy's limiter;
// a caller whose tier changes keeps its one counter and meets the new limit on its next request
// (the block cache included); the live limit, shadow mode, the deny list and failureMode 'local'
// apply per tier; and for any sequence of callers, tier changes and clock moves, no caller is ever
// admitted past its current tier's limit in a window.
import fc from 'fast-check';
import type { CallerVerifier, VerifiedCaller } from '../../../server/src';
import { advanceDate, fakeDateOnly } from '../../support/fake-date';
import { startStoreProxy } from './store-proxy';
import { appsClosedAfterEach, limitedApp, statuses, storeForSuite, strategy, type LimitedApp } from './support';

const store = storeForSuite();
const apps = appsClosedAfterEach();

/**
 * A verifier standing in for Strapi's: `Bearer user:<id>` is a user whose role type is `roles[id]`,
 * `Bearer token:<id>:<type>` an API token of that type; anything else verifies nothing (anonymous).
 */
function fakeVerifier(roles: Map<string, string>): CallerVerifier {
  return async (ctx) => {
    const [kind, id, type] = (ctx.get('authorization').replace(/^Bearer /, '') || '-').split(':');
    if (kind === 'user') return { kind: 'user', id, type: roles.get(id) } satisfies VerifiedCaller;
    if (kind === 'token') return { kind: 'token', id, type };
    return undefined;
  };
}

const TIERS = { apiTokens: { 'read-only': { tokens: 4 } }, roles: { authenticated: { tokens: 3 }, partner: { tokens: 5 } }, anonymous: { tokens: 2 } };

function tieredApp(prefix: string, roles: Map<string, string>, overrides: Record<string, unknown> = {}, limiter: Parameters<typeof strategy>[1] = {}): LimitedApp {
  const app = limitedApp(
    { url: store.kv.url, token: store.kv.token, prefix, ...overrides, strategy: [strategy({ identifierSource: 'user', tiers: TIERS, ...((overrides.strategyFields as object) ?? {}) }, { tokens: 1, ...limiter })] },
    { proxy: true, verifyCaller: fakeVerifier(roles) },
  );
  apps.push(app);
  return app;
}

const as = (app: LimitedApp, credential?: string, ip = '198.51.100.1') => () => {
  const request = app.request.get('/limited').set('x-forwarded-for', ip);
  return credential === undefined ? request : request.set('authorization', `Bearer ${credential}`);
};

describe('tiers on one strategy limit each caller by who it is', () => {
  it('gives anonymous callers, each role, each API token type and callers no tier names their own limit and headers', async () => {
    const app = tieredApp('tiers-each', new Map([['1', 'authenticated'], ['2', 'partner'], ['3', 'editor']]));
    const runs = await Promise.all([
      statuses(as(app), 3),
      statuses(as(app, 'user:1'), 4),
      statuses(as(app, 'user:2'), 6),
      statuses(as(app, 'token:9:read-only'), 5),
      // A token type and a role the strategy names no tier for: its limiter (1).
      statuses(as(app, 'token:8:full-access'), 2),
      statuses(as(app, 'user:3'), 2),
    ]);
    expect(runs).toEqual([[200, 200, 429], [200, 200, 200, 429], [200, 200, 200, 200, 200, 429], [200, 200, 200, 200, 429], [200, 429], [200, 429]]);
    const policies = await Promise.all(['user:1', 'user:2', 'token:9:read-only', 'token:8:full-access', undefined].map(async (credential) => (await as(app, credential, '198.51.100.2')()).headers['ratelimit-policy']));
    expect(policies).toEqual(['3;w=3600', '5;w=3600', '4;w=3600', '1;w=3600', '2;w=3600']);
  });

  it('keeps one counter per caller across a tier change: a promoted user gets the new limit at once (past its block), a demoted one is refused at once', async () => {
    fakeDateOnly(1_800_000_000_000);
    const roles = new Map([['1', 'authenticated'], ['2', 'partner']]);
    const app = tieredApp('tiers-change', roles, {}, { algorithm: 'sliding-window' });
    const promoted = await statuses(as(app, 'user:1'), 4);
    roles.set('1', 'partner');
    promoted.push(...(await statuses(as(app, 'user:1'), 3)));
    const demoted = await statuses(as(app, 'user:2'), 4);
    roles.set('2', 'authenticated');
    demoted.push(...(await statuses(as(app, 'user:2'), 1)));
    expect([promoted, demoted]).toEqual([
      [200, 200, 200, 429, 200, 200, 429],
      [200, 200, 200, 200, 429],
    ]);
    // One key per caller, whatever its tier: the layout has no tier in it.
    expect((await store.redis.keys('tiers-change:*')).filter((key) => key.includes('user=1'))).toEqual([expect.stringMatching(/^tiers-change:GET:\/limited:user=1:sliding-window\.1h:\d+$/)]);
  });

  it("lets the live limit change the strategy's own limit only: callers no tier names get it, the tiers keep theirs", async () => {
    const app = tieredApp('tiers-live', new Map([['1', 'authenticated']]));
    await app.limiter.setLiveLimit(0, 6, 'admin@example.com');
    expect(await Promise.all([statuses(as(app, 'token:8:full-access'), 7), statuses(as(app, 'user:1'), 4)])).toEqual([
      [200, 200, 200, 200, 200, 200, 429],
      [200, 200, 200, 429],
    ]);
  });

  it('reads the live limit with the strategy\'s own limiter only: a foreign live value is warned about once, tier callers between its callers re-arm nothing', async () => {
    const app = tieredApp('tiers-foreign', new Map([['1', 'partner']]), { failureMode: 'local' });
    await store.redis.set('tiers-foreign:live:GET:/limited:fixed-window.1h:dynamic:global', 'abc');
    const mixed = [];
    for (let round = 0; round < 3; round++) mixed.push(...(await statuses(as(app, 'token:8:full-access'), 1)), ...(await statuses(as(app, 'user:1'), 1)));
    expect([mixed, app.logs.warn.length]).toEqual([[200, 200, 429, 200, 429, 200], 1]);
  });

  it('refuses a denied principal with 403 whatever its tier, and counts a shadow strategy per tier without refusing', async () => {
    const app = tieredApp('tiers-deny', new Map([['1', 'partner']]), { mode: 'shadow' });
    expect(await statuses(as(app, 'user:1'), 7)).toEqual([200, 200, 200, 200, 200, 200, 200]);
    expect(app.logs.info.filter((line) => line.startsWith('[ratelimit] shadow:'))).toEqual([expect.stringContaining('user=1')]);
    await app.limiter.denyCaller({ strategy: 0, identifier: 'user=1' }, 'admin@example.com');
    expect(await statuses(as(app, 'user:1'), 1)).toEqual([403]);
  });

  it("limits each tier in memory with its own limit while the store is away (failureMode 'local')", async () => {
    const proxy = await startStoreProxy(store.kv.url);
    try {
      const app = tieredApp('tiers-local', new Map([['1', 'partner']]), { url: proxy.url, failureMode: 'local' });
      proxy.mode = 'reset';
      expect(await Promise.all([statuses(as(app), 3), statuses(as(app, 'user:1'), 6), statuses(as(app, 'token:8:full-access'), 2)])).toEqual([
        [200, 200, 429],
        [200, 200, 200, 200, 200, 429],
        [200, 429],
      ]);
    } finally {
      await proxy.close();
    }
  });
});

describe('the usage view shows each caller in its tier', () => {
  it("lists each strategy's tiers and each caller in the tier this instance saw it in, its counter against that tier's limit", async () => {
    const app = tieredApp('tiers-usage', new Map([['1', 'partner'], ['3', 'editor']]));
    await Promise.all([statuses(as(app), 1), statuses(as(app, 'user:1'), 2), statuses(as(app, 'user:3'), 1), statuses(as(app, 'token:9:read-only'), 1)]);
    const [usage] = (await app.limiter.readUsage()).strategies;
    expect(usage.tiers).toEqual([
      { name: 'apiTokens.read-only', tokens: 4 },
      { name: 'roles.authenticated', tokens: 3 },
      { name: 'roles.partner', tokens: 5 },
      { name: 'anonymous', tokens: 2 },
    ]);
    expect(usage.callers.map(({ identifier, tier, used, limit }) => ({ identifier, tier, used, limit })).sort((a, b) => a.identifier.localeCompare(b.identifier))).toEqual([
      { identifier: '198.51.100.1', tier: 'anonymous', used: 1, limit: 2 },
      { identifier: 'token=9', tier: 'apiTokens.read-only', used: 1, limit: 4 },
      { identifier: 'user=1', tier: 'roles.partner', used: 2, limit: 5 },
      { identifier: 'user=3', tier: 'limiter', used: 1, limit: 1 },
    ]);
    // Another instance on the same store has seen none of them: no tier, the strategy's own limit.
    const other = tieredApp('tiers-usage', new Map());
    expect((await other.limiter.readUsage()).strategies[0].callers.map(({ tier, limit }) => [tier, limit])).toEqual([[undefined, 1], [undefined, 1], [undefined, 1], [undefined, 1]]);
  });
});

describe('tiers hold for any sequence of callers, tier changes and clock moves', () => {
  type Op = { kind: 'request'; caller: number } | { kind: 'promote'; caller: number; role: string } | { kind: 'advance'; ms: number };
  const CALLERS = ['anonymous', 'user:1', 'user:2', 'token:7:read-only', 'token:8:full-access'];
  const LIMITS: Record<string, number> = { authenticated: 3, partner: 5, editor: 1 };
  const WINDOW_MS = 10_000;

  it('for any sequence of callers, tier changes and clock moves, no caller is admitted past its current tier limit in a window (and, with no block cache, a fixed window admits exactly up to it)', async () => {
    const ops = fc.array(
      fc.oneof(
        { weight: 6, arbitrary: fc.record({ kind: fc.constant('request' as const), caller: fc.integer({ min: 0, max: CALLERS.length - 1 }) }) },
        { weight: 1, arbitrary: fc.record({ kind: fc.constant('promote' as const), caller: fc.integer({ min: 1, max: 2 }), role: fc.constantFrom(...Object.keys(LIMITS)) }) },
        { weight: 1, arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 1, max: WINDOW_MS }) }) },
      ),
      { minLength: 1, maxLength: 30 },
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('fixed-window' as const, 'sliding-window' as const), fc.constantFrom(0, 10_000), ops, async (algorithm, blockedCacheSize, sequence: Op[]) => {
        fakeDateOnly(1_800_000_000_000);
        const roles = new Map([['1', 'authenticated'], ['2', 'editor']]);
        const app = tieredApp(`tiers-property-${++run}`, roles, { blockedCacheSize }, { algorithm, window: `${WINDOW_MS}ms` });
        try {
          // Per caller: admitted requests (fixed window: all requests reaching the store) by window number.
          const admitted = new Map<string, number>();
          const counted = new Map<string, number>();
          for (const op of sequence) {
            if (op.kind === 'advance') advanceDate(op.ms);
            else if (op.kind === 'promote') roles.set(String(op.caller), op.role);
            else {
              const credential = CALLERS[op.caller];
              const limit = credential === 'anonymous' ? 2 : credential.startsWith('user:') ? LIMITS[roles.get(credential.slice(5)) as string] : credential.endsWith('read-only') ? 4 : 1;
              const slot = `${credential} ${Math.floor(Date.now() / WINDOW_MS)}`;
              const { status } = await as(app, credential === 'anonymous' ? undefined : credential)();
              expect(status === 200 || status === 429).toBe(true);
              if (status === 200) {
                admitted.set(slot, (admitted.get(slot) ?? 0) + 1);
                // The safety property: no admission takes this window past the current tier's limit (after a
                // demotion the window may already hold more than the new limit; what matters is that nothing more is admitted).
                expect(admitted.get(slot)).toBeLessThanOrEqual(limit);
              }
              if (algorithm === 'fixed-window' && blockedCacheSize === 0) {
                // Every request reaches the store and counts, refused or not: admitted exactly while the count is within the limit.
                const count = (counted.get(slot) ?? 0) + 1;
                counted.set(slot, count);
                expect(status).toBe(count <= limit ? 200 : 429);
              }
            }
          }
        } finally {
          apps.splice(apps.indexOf(app), 1);
          app.close();
        }
      }),
      { numRuns: 60 },
    );
  });
});
