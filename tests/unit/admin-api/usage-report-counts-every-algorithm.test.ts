// The usage report reads back what the limiters wrote: used and remaining tokens, reset times and
// who is blocked, for fixed-window, sliding-window and token-bucket strategies. The refusal here is
// the report's instance's own (what its block cache would say), as when it served the request.
import { readUsage } from '../../../server/src/admin-api/usage-service';
import type { Algorithm } from '../../../server/src/config/schema';
import { hit, startAdminStore, type AdminStoreFixture } from './support';

let store: AdminStoreFixture;
beforeAll(async () => {
  store = await startAdminStore();
});
afterAll(() => store.close());

const ALGORITHMS: Algorithm[] = ['fixed-window', 'sliding-window', 'token-bucket'];

describe.each(ALGORITHMS)('%s', (algorithm) => {
  it('lists each caller with used and remaining tokens, the blocked one first', async () => {
    const prefix = `usage-${algorithm}`;
    const config = store.config({
      prefix,
      strategy: [{ methods: ['GET', 'POST'], path: '/api/articles/:id', identifierSource: 'ip', limiter: { algorithm, tokens: 3, window: '1h' } }],
    });
    expect(await hit(store.redis, config, 0, 'GET', '10.0.0.2', 1)).toEqual([true]);
    expect(await hit(store.redis, config, 0, 'GET', '10.0.0.1', 4)).toEqual([true, true, true, false]);
    await hit(store.redis, config, 0, 'POST', '10.0.0.1', 2);

    const before = Date.now();
    const refusedHere = (strategy: number, method: string, identifier: string) => `${strategy} ${method} ${identifier}` === '0 GET 10.0.0.1';
    const report = await readUsage(store.redis, config, undefined, Date.now(), undefined, { classOf: () => undefined, refusedHere });
    const [usage] = report.strategies;
    expect(usage).toMatchObject({ index: 0, methods: ['GET', 'POST'], path: '/api/articles/:id', algorithm, tokens: 3, window: '1h', totalCallers: 3, totalExact: true, blockedCallers: 1 });
    expect(usage.callers.map(({ method, identifier, used, remaining, blocked }) => ({ method, identifier, used, remaining, blocked }))).toEqual([
      { method: 'GET', identifier: '10.0.0.1', used: 3, remaining: 0, blocked: true },
      { method: 'POST', identifier: '10.0.0.1', used: 2, remaining: 1, blocked: false },
      { method: 'GET', identifier: '10.0.0.2', used: 1, remaining: 2, blocked: false },
    ]);
    for (const caller of usage.callers) {
      expect(caller.limit).toBe(3);
      expect(caller.reset).toBeGreaterThan(before);
      expect(caller.reset).toBeLessThanOrEqual(before + 60 * 60 * 1000 + 5000);
    }
  });
});

it('reports every configured strategy, with none of another prefix\'s keys', async () => {
  const config = store.config({
    prefix: 'usage-two',
    strategy: [
      { methods: ['ALL'], path: '*', identifierSource: 'header.x-api-key', debug: 'true', limiter: { algorithm: 'token-bucket', tokens: 5, window: '1m', refillRate: 2 } },
      { methods: ['get'], path: '/api/*', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 10, window: '10s' } },
    ],
  });
  const other = store.config({ prefix: 'usage-two-other', strategy: config.strategy });
  await hit(store.redis, config, 0, 'ALL', 'key-1', 2);
  await hit(store.redis, other, 1, 'GET', 'elsewhere', 1);

  const report = await readUsage(store.redis, config);
  expect(report).toMatchObject({ enabled: true, prefix: 'usage-two', analyticsEnabled: false });
  expect(report.analytics).toBeUndefined();
  expect(report.strategies[0]).toMatchObject({ methods: ['ALL'], path: '*', refillRate: 2, debug: true, identifierSource: 'header.x-api-key', totalCallers: 1 });
  expect(report.strategies[0].callers[0]).toMatchObject({ identifier: 'key-1', used: 2, remaining: 3 });
  expect(report.strategies[1]).toMatchObject({ methods: ['GET'], path: '/api/*', totalCallers: 0, callers: [], blockedCallers: 0 });
});
