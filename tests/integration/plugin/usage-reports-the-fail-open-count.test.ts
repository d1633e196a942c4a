// GET /ratelimit/usage carries the fail-open count of the limiter that serves it (requests let
// through unchecked because the store failed): the admin API and the middleware are one rate limiter.
import type { Context } from 'koa';
import { usageController } from '../../../server/src/admin-api/controllers';
import { CIRCUIT_LONGEST_INTERVAL_MS } from '../../../server/src/store/store-circuit';
import { startStoreProxy } from './store-proxy';
import { fakeDateOnly } from '../../support/fake-date';
import { limitedApp, startKvRestServer, statuses, strategy, type KvRestServer, type LimitedApp } from './support';

let kv: KvRestServer;
beforeAll(async () => {
  kv = await startKvRestServer();
});
afterAll(() => kv.close());
afterEach(() => jest.useRealTimers());

const read = async (app: LimitedApp) => {
  const ctx = { query: {}, status: 404, body: undefined } as unknown as Context;
  await usageController(() => app.limiter).read(ctx);
  return (ctx.body as { data: { failOpen: unknown } }).data.failOpen;
};

it('reports the count of the requests its limiter let through, and zero for a limiter whose store never failed', async () => {
  fakeDateOnly();
  const store = await startStoreProxy(kv.url);
  const config = { url: store.url, token: kv.token, prefix: 'fail-open-report', strategy: [strategy()] };
  const failing = limitedApp(config);
  const healthy = limitedApp(config);
  try {
    store.mode = 'reset';
    expect(await statuses(() => failing.request.get('/limited'), 2)).toEqual([200, 200]);
    store.mode = 'forward';
    jest.setSystemTime(Date.now() + CIRCUIT_LONGEST_INTERVAL_MS);
    expect([await read(failing), await read(healthy)]).toEqual([
      { admitted: 2, outage: true },
      { admitted: 0, outage: false },
    ]);
  } finally {
    failing.close();
    healthy.close();
    await store.close();
  }
});
