// Zero-config development: without `url` outside production the limiter keeps its counters in the
// embedded in-memory store, in this process (no server to start, no HTTP hop), and says so; the
// admin usage report names the store in use; production still requires url and token, naming them.
import Koa, { type Context } from 'koa';
import supertest from 'supertest';
import strapiServer from '../../../strapi-server';
import { createRateLimitMiddleware, RateLimitConfigError } from '../../../server/src';
import { limitedApp, statuses, strategy } from './support';
import { fakeStrapi } from '../../support/fake-strapi';

const strategies = [strategy({}, { tokens: 2 })];

it('zero-config: without url in development the limiter counts in the embedded store, and the report names it', async () => {
  const app = limitedApp({ strategy: strategies });
  try {
    expect(await statuses(() => app.request.get('/limited'), 3)).toEqual([200, 200, 429]);
    expect(app.limiter.store).toEqual({ kind: 'embedded' });
    expect(await app.limiter.checkStore()).toEqual({ ok: true });
    const report = await app.limiter.readUsage();
    expect(report.store).toEqual({ kind: 'embedded' });
    expect(report.strategies[0].callers.map(({ identifier, used, blocked }) => ({ identifier, used, blocked }))).toEqual([{ identifier: '127.0.0.1', used: 2, blocked: true }]);
  } finally {
    app.close();
  }
});

it('zero-config: a REST store is reported by its URL, without credentials', async () => {
  const limiter = createRateLimitMiddleware({ url: 'https://user:pw@eu1-kv.example.com/path?_token=secret', token: 't', strategy: strategies });
  try {
    expect(limiter.store).toEqual({ kind: 'rest', url: 'https://eu1-kv.example.com/path' });
  } finally {
    limiter.close();
  }
});

it('zero-config: in production a url stays required, and the error names the three forms it takes', () => {
  expect(() => createRateLimitMiddleware({ strategy: strategies }, { environment: 'production' })).toThrow(
    new RateLimitConfigError([
      'url: is required in production: a key-value REST url with its token (https://<db>.upstash.io, or the key-value server at http://host:port), a Redis url (redis://[user:password@]host:6379[/db], rediss:// for TLS; no token), or a Sentinel or Cluster url (redis+sentinel://host:port,host:port/<master name>, redis+cluster://host:port,host:port); development without one runs an embedded in-memory store',
    ]),
  );
});

it('zero-config: the Strapi plugin says in one boot line that it runs the embedded store, and its admin API reads that same store', async () => {
  const { strapi, lines } = fakeStrapi({ 'plugin::ratelimit': { strategy: strategies }, middlewares: [] });
  await strapiServer.bootstrap({ strapi });
  try {
    expect(lines).toEqual({ info: ['[ratelimit] limiting with 1 strategy on the embedded in-memory store (no url in development: counters live in this Strapi process only; set url, and token for a REST store, to share them)'], warn: [], error: [] });
    const app = new Koa();
    app.use(strapiServer.middlewares.limit({}, { strapi }));
    app.use((ctx) => void (ctx.body = 'ok'));
    const server = app.listen(0, '127.0.0.1');
    try {
      expect(await statuses(() => supertest(server).get('/limited'), 1)).toEqual([200]);
    } finally {
      server.close();
    }
    const ctx = { query: {}, status: 200, body: undefined as unknown } as unknown as Context;
    await strapiServer.controllers.usage({ strapi }).read(ctx);
    const report = (ctx.body as { data: { store: unknown; strategies: { callers: { identifier: string; used: number }[] }[] } }).data;
    expect([report.store, report.strategies[0].callers.map(({ identifier, used }) => ({ identifier, used }))]).toEqual([{ kind: 'embedded' }, [{ identifier: '127.0.0.1', used: 1 }]]);
  } finally {
    strapiServer.destroy({ strapi });
  }
});
