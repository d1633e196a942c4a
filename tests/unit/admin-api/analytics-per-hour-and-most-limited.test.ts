// With analytics on, the report carries allowed vs blocked per hour over 24 hours and the most
// limited callers; with no event recorded yet it answers zeros instead of failing.
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
  expect(report.analytics!.mostLimited[0]).toEqual({ identifier: 'GET:/api/*:flooder:fixed-window.1h', count: 3 });
});
