// Many callers: the report lists at most `maxCallers` of them with the true total, and stops
// scanning at `maxScannedKeys`, saying the total is then only a lower bound.
import { readUsage } from '../../../server/src/admin-api/usage-service';
import { startAdminStore, type AdminStoreFixture } from './support';

let store: AdminStoreFixture;
beforeAll(async () => {
  store = await startAdminStore();
});
afterAll(() => store.close());

const CALLERS = 300;

it('lists a bounded number of callers with the total of all of them', async () => {
  const config = store.config({ prefix: 'bounded', strategy: [{ methods: ['GET'], path: '/api/articles', identifierSource: 'ip', limiter: { algorithm: 'token-bucket', tokens: 5, window: '1h' } }] });
  const { keys } = config.rules[0];
  const pipeline = store.redis.pipeline();
  for (let caller = 0; caller < CALLERS; caller += 1) pipeline.hset(keys.storeKey('GET', `caller-${caller}`), { refilledAt: Date.now(), tokens: caller % 5 });
  await pipeline.exec();

  const report = await readUsage(store.redis, config, { maxCallers: 20, scanBatch: 50, maxScannedKeys: 10_000, maxScanCalls: 1000 });
  expect(report.strategies[0].callers).toHaveLength(20);
  expect(report.strategies[0].totalCallers).toBe(CALLERS);
  expect(report.strategies[0].totalExact).toBe(true);

  const cut = await readUsage(store.redis, config, { maxCallers: 20, scanBatch: 50, maxScannedKeys: 100, maxScanCalls: 1000 });
  expect(cut.strategies[0].callers).toHaveLength(20);
  expect(cut.strategies[0].totalCallers).toBeGreaterThanOrEqual(100);
  expect(cut.strategies[0].totalCallers).toBeLessThan(CALLERS);
  expect(cut.strategies[0].totalExact).toBe(false);
});
