// Finding 6 of issue 12 and defect 1 of issue 18: one strategy's key stem plus an identifier must
// never be another strategy's keys. A reset touches only its own strategy's counters, and each
// strategy's usage counts only its own keys.
import { readUsage, resetCaller } from '../../../server/src/admin-api/usage-service';
import { hit, startAdminStore, type AdminStoreFixture } from './support';

let store: AdminStoreFixture;
beforeAll(async () => {
  store = await startAdminStore();
});
afterAll(() => store.close());

const listed = (report: Awaited<ReturnType<typeof readUsage>>) =>
  report.strategies.map((strategy) => strategy.callers.map((caller) => `${caller.method} ${caller.identifier} ${caller.used}`));

it('finding 6: resetting caller "id" on GET /api/articles/ leaves the counters of GET /api/articles/:id, and neither usage counts the other', async () => {
  const config = store.config({
    prefix: 'finding-6',
    strategy: [
      { methods: ['GET'], path: '/api/articles/:id', identifierSource: 'ip', limiter: { algorithm: 'token-bucket', tokens: 5, window: '1h' } },
      { methods: ['GET'], path: '/api/articles/', identifierSource: 'header.x-caller', limiter: { algorithm: 'fixed-window', tokens: 5, window: '1h' } },
    ],
  });
  await hit(store.redis, config, 0, 'GET', '10.0.0.1', 2);
  await hit(store.redis, config, 0, 'GET', '10.0.0.2', 1);

  expect(listed(await readUsage(store.redis, config))).toEqual([['GET 10.0.0.1 2', 'GET 10.0.0.2 1'], []]);
  expect(await resetCaller(store.redis, config, 1, 'id')).toBe(0);
  expect(listed(await readUsage(store.redis, config))).toEqual([['GET 10.0.0.1 2', 'GET 10.0.0.2 1'], []]);
});

it('issue 18 defect 1: a reset keeps the other strategies of the same route, method and caller (burst + sustained + bucket)', async () => {
  const config = store.config({
    prefix: 'issue-18-reset',
    strategy: [
      { methods: ['GET'], path: '/api/articles', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 5, window: '10s' } },
      { methods: ['GET'], path: '/api/articles', identifierSource: 'ip', limiter: { algorithm: 'sliding-window', tokens: 50, window: '1h' } },
      { methods: ['GET'], path: '/api/articles', identifierSource: 'ip', limiter: { algorithm: 'token-bucket', tokens: 20, window: '1m' } },
    ],
  });
  await hit(store.redis, config, 0, 'GET', '1.2.3.4', 1);
  await hit(store.redis, config, 1, 'GET', '1.2.3.4', 2);
  await hit(store.redis, config, 2, 'GET', '1.2.3.4', 3);
  expect(listed(await readUsage(store.redis, config))).toEqual([['GET 1.2.3.4 1'], ['GET 1.2.3.4 2'], ['GET 1.2.3.4 3']]);

  expect(await resetCaller(store.redis, config, 0, '1.2.3.4')).toBe(1);
  expect(listed(await readUsage(store.redis, config))).toEqual([[], ['GET 1.2.3.4 2'], ['GET 1.2.3.4 3']]);
  expect(await resetCaller(store.redis, config, 2, '1.2.3.4')).toBe(1);
  expect(listed(await readUsage(store.redis, config))).toEqual([[], ['GET 1.2.3.4 2'], []]);
});
