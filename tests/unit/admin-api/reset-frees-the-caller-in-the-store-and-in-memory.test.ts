// POST /ratelimit/reset goes to the limiter that counts the caller: its counters leave the store and
// its block leaves that limiter's memory, so the caller's next request is admitted at once.
import Koa, { type Context } from 'koa';
import supertest from 'supertest';
import { createRateLimitMiddleware } from '../../../server/src';
import { usageController } from '../../../server/src/admin-api/controllers';
import { startAdminStore, type AdminStoreFixture } from './support';

let store: AdminStoreFixture;
beforeAll(async () => {
  store = await startAdminStore();
});
afterAll(() => store.close());

it('deletes the counters and forgets the block, so the caller is admitted again', async () => {
  const limiter = createRateLimitMiddleware({ url: store.server.url, token: store.server.token, strategy: [{ methods: ['GET'], path: '/api/*', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 1, window: '1h' } }] });
  const app = new Koa();
  app.use(limiter);
  app.use((ctx) => void (ctx.body = 'ok'));
  const server = app.listen(0, '127.0.0.1');
  const statuses = async (count: number) => {
    const seen: number[] = [];
    for (let request = 0; request < count; request += 1) seen.push((await supertest(server).get('/api/articles')).status);
    return seen;
  };
  try {
    expect(await statuses(3)).toEqual([200, 429, 429]);

    const ctx = { query: {}, request: { body: { strategy: 0, identifier: '127.0.0.1' } }, status: 404, body: undefined } as unknown as Context;
    await usageController(() => limiter).reset(ctx);

    expect(ctx.body).toEqual({ data: { strategy: 0, identifier: '127.0.0.1', deletedKeys: 1 } });
    expect(await statuses(2)).toEqual([200, 429]);
  } finally {
    server.close();
    limiter.close();
  }
});
