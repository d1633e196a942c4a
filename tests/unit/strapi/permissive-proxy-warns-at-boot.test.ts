// At boot the plugin warns once when Strapi's proxy settings let clients choose their own IP
// (`proxy.koa: true` without `maxIpsCount`), saying how to fix it; it says nothing otherwise. The
// store is the embedded one, which answers the boot check, so the warnings read are the proxy's.
import strapiServer from '../../../strapi-server';
import { fakeStrapi } from '../../support/fake-strapi';

async function bootWith(proxy: unknown, strategy: unknown[] = [{ methods: ['GET'], path: '/api/*', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 1, window: '1m' } }]) {
  // Strapi's config.get reads nested paths: `server.proxy.koa` and the like come from `proxy`.
  const proxySettings = Object.entries(typeof proxy === 'object' && proxy !== null ? proxy : {}).map(([name, value]) => [`server.proxy.${name}`, value]);
  const { strapi, lines } = fakeStrapi({ 'plugin::ratelimit': { strategy }, middlewares: [], ...Object.fromEntries(proxySettings) });
  await strapiServer.bootstrap({ strapi });
  strapiServer.destroy({ strapi });
  return lines.warn;
}

it('warns once, naming the fix, for proxy: { koa: true } without maxIpsCount', async () => {
  expect(await bootWith({ koa: true })).toEqual([
    '[ratelimit] config/server: proxy.koa is true without proxy.maxIpsCount, so the client IP is the left-most X-Forwarded-For entry, which clients write themselves: a caller limited by IP can claim a new address with every request. Set proxy: { koa: true, maxIpsCount: <the number of proxies in front of Strapi> } (1 behind one load balancer).',
  ]);
  expect(await bootWith({ koa: true, maxIpsCount: 0, ipHeader: 'X-Real-IP' })).toEqual([expect.stringContaining('the left-most X-Real-IP entry')]);
});

it.each([[{ koa: true, maxIpsCount: 1 }], [{ koa: false }], [undefined], [true]])('says nothing for proxy %j', async (proxy) => {
  expect(await bootWith(proxy)).toEqual([]);
});

it('gives no proxy warning while no strategy is configured, only the one that nothing is limited', async () => {
  expect(await bootWith({ koa: true }, [])).toEqual([expect.stringMatching(/^\[ratelimit\] no strategy configured, so no request is limited/)]);
});
