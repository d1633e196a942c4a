// POST /ratelimit/reset tells the listeners registered with onCallerReset (the plugin's block
// cache) which caller of which strategy was reset, after its counters are gone from the store.
import type { Context } from 'koa';
import { closeAdminStore, onCallerReset } from '../../../server/src/admin-api/admin-store';
import { usageController } from '../../../server/src/admin-api/controllers';
import { hit, startAdminStore, type AdminStoreFixture } from './support';

let store: AdminStoreFixture;
beforeAll(async () => {
  store = await startAdminStore();
});
afterAll(() => store.close());

it('deletes the counters, then tells each listener', async () => {
  const input = { url: store.server.url, token: store.server.token, strategy: [{ methods: ['GET'], path: '/api/*', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 1, window: '1h' } }] };
  const strapi = { config: { get: () => input } };
  const config = store.config({ strategy: input.strategy as never });
  await hit(store.redis, config, 0, 'GET', 'flooder', 2);
  const told: string[] = [];
  onCallerReset(strapi, (strategy, identifier) => told.push(`${strategy} ${identifier}`));

  const ctx = { query: {}, request: { body: { strategy: 0, identifier: 'flooder' } }, status: 404, body: undefined } as unknown as Context;
  await usageController({ strapi }).reset(ctx);
  closeAdminStore(strapi);

  expect(ctx.body).toEqual({ data: { strategy: 0, identifier: 'flooder', deletedKeys: 1 } });
  expect(told).toEqual(['0 flooder']);
  expect(await hit(store.redis, config, 0, 'GET', 'flooder', 1)).toEqual([true]);
});
