// With analytics on, the report carries allowed vs blocked per hour over 24 hours and the most
// limited callers, each with the path of its strategy as written (keys hold the canonical form); with
// no event recorded yet it answers zeros instead of failing.
import type { RateLimitConfigInput } from '../../../server/src';
import { readUsage } from '../../../server/src/admin-api/usage-service';
import { hit, startAdminStore, type AdminStoreFixture } from './support';

let store: AdminStoreFixture;
beforeAll(async () => {
  store = await startAdminStore();
});
afterAll(() => store.close());

const strategy: RateLimitConfigInput['strategy'] = [{ methods: ['GET'], path: '/api/*', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 2, window: '1h' } }];

it('answers 24 empty hours before any event', async () => {
  const report = await readUsage(store.redis, store.config({ prefix: 'analytics-empty', analytics: true, strategy }));
  expect(report.analytics?.hours).toHaveLength(24);
  expect(report.analytics?.hours.every((hour) => hour.allowed === 0 && hour.blocked === 0)).toBe(true);
  expect(report.analytics?.mostLimited).toEqual([]);
});

it('counts allowed and blocked requests in the current hour and names the most limited caller', async () => {
  const config = store.config({ prefix: 'analytics-traffic', analytics: true, strategy });
  await hit(store.redis, config, 0, 'GET', 'flooder', 5);
  await hit(store.redis, config, 0, 'GET', 'polite', 1);

  const report = await readUsage(store.redis, config);
  const hours = report.analytics!.hours;
  expect(hours[23]).toMatchObject({ allowed: 3, blocked: 3 });
  expect(hours[23].time).toBe(Math.floor(Date.now() / 3_600_000) * 3_600_000);
  expect(hours.slice(0, 23).every((hour) => hour.allowed === 0 && hour.blocked === 0)).toBe(true);
  expect(report.analytics!.mostLimited[0]).toEqual({ identifier: 'GET:/api/*:flooder:fixed-window.1h', count: 3, path: '/api/*' });
});

it('names the most limited caller\'s route as its strategy writes it, not as the key holds it', async () => {
  const written: RateLimitConfigInput['strategy'] = [{ methods: ['GET'], path: '/api/Articles/:documentId', identifierSource: 'ip', limiter: { algorithm: 'sliding-window', tokens: 1, window: '1h' } }];
  const config = store.config({ prefix: 'analytics-written', analytics: true, strategy: written });
  await hit(store.redis, config, 0, 'GET', 'flooder', 2);

  const report = await readUsage(store.redis, config);
  expect(report.analytics!.mostLimited).toEqual([{ identifier: 'GET:/api/articles/%3A:flooder:sliding-window.1h', count: 1, path: '/api/Articles/:documentId' }]);
});
