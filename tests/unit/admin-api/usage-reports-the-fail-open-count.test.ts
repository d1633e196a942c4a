// GET /ratelimit/usage carries the running limiter's fail-open count (requests let through unchecked
// because the store failed), read from what the plugin registered with reportFailOpenFrom.
import type { Context } from 'koa';
import { closeAdminStore, reportFailOpenFrom } from '../../../server/src/admin-api/admin-store';
import { usageController } from '../../../server/src/admin-api/controllers';
import { startAdminStore, type AdminStoreFixture } from './support';

let store: AdminStoreFixture;
beforeAll(async () => {
  store = await startAdminStore();
});
afterAll(() => store.close());

const read = async (strapi: { config: { get: () => unknown } }) => {
  const ctx = { query: {}, status: 404, body: undefined } as unknown as Context;
  await usageController({ strapi }).read(ctx);
  return (ctx.body as { data: { failOpen: unknown } }).data.failOpen;
};

it('reports the registered count, and zero without a running limiter', async () => {
  const input = { url: store.server.url, token: store.server.token, prefix: 'fail-open-report', strategy: [] };
  const withLimiter = { config: { get: () => input } };
  const withoutLimiter = { config: { get: () => input } };
  reportFailOpenFrom(withLimiter, () => ({ admitted: 42, outage: true }));
  try {
    expect(await read(withLimiter)).toEqual({ admitted: 42, outage: true });
    expect(await read(withoutLimiter)).toEqual({ admitted: 0, outage: false });
  } finally {
    closeAdminStore(withLimiter);
    closeAdminStore(withoutLimiter);
  }
});
