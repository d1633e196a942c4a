// Item 9: `enabled: false` inside the plugin's config turns limiting off and, with it, every use of
// the store: no middleware, no boot check, and the admin usage view answers `enabled: false` with the
// configured strategies (the page shows its "disabled" notice), never a "store cannot be reached"
// error from a store that a disabled plugin has no reason to call. (Strapi's own `enabled: false` on
// the plugin entry does not load the plugin at all: see the README.)
import type { Context } from 'koa';
import strapiServer from '../../../strapi-server';
import { closedPortUrl } from '../../fixtures/ports';
import { fakeStrapi } from '../../support/fake-strapi';
import { CONFIG_ONLY } from '../../../server/src/admin-api/usage-types';

it('item 9: a plugin whose config says enabled: false adds no limiter, checks no store, and its usage view says disabled instead of failing', async () => {
  const strategy = { methods: ['GET'], path: '/api/ping', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 1, window: '1m' } };
  const settings: Record<string, unknown> = { 'plugin::ratelimit': { enabled: false, url: await closedPortUrl(), token: 't', analytics: true, strategy: [strategy] }, middlewares: [] };
  const { strapi, used, lines } = fakeStrapi(settings);
  await strapiServer.bootstrap({ strapi });
  try {
    const ctx = { query: {}, status: 200, body: undefined as unknown } as unknown as Context;
    await strapiServer.controllers.usage({ strapi }).read(ctx);
    expect([used, lines]).toEqual([[], { info: ['[ratelimit] disabled by the plugin config (enabled: false): no request is limited'], warn: [], error: [] }]);
    expect(ctx.status).toBe(200);
    expect(ctx.body).toEqual({
      data: {
        enabled: false,
        store: { kind: 'none' },
        prefix: '@cms',
        analyticsEnabled: true,
        generatedAt: expect.any(Number),
        failOpen: { admitted: 0, outage: false },
        strategies: [
          { index: 0, methods: ['GET'], path: '/api/ping', algorithm: 'fixed-window', tokens: 1, window: '1m', identifierSource: 'ip', debug: false, mode: 'enforce', liveTokens: null, runtimeChangeable: ['tokens'], configOnly: [...CONFIG_ONLY], callers: [], totalCallers: 0, totalExact: true, blockedCallers: 0 },
        ],
      },
    });
  } finally {
    strapiServer.destroy({ strapi });
  }
});
