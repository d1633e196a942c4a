// In a real Strapi app booted with `proxy: { koa: true }` and no maxIpsCount, the plugin logs its
// one warning at boot, through Strapi's logger, saying how to fix the setting.
import { strapiAppWithStoreForSuite } from '../support/strapi-app';

describe('boot with a permissive proxy setting', () => {
  const suite = strapiAppWithStoreForSuite({ strategy: [{ methods: ['GET'], path: '/api/ping', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 2, window: '1h' } }] }, { proxy: { koa: true } });

  it('logs once that proxy.koa without maxIpsCount lets clients choose their IP, and how to fix it', () => {
    const warnings = suite.app.log.map(({ message }) => message).filter((line) => line.includes('proxy.koa is true without proxy.maxIpsCount'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('Set proxy: { koa: true, maxIpsCount: <the number of proxies in front of Strapi> }');
  });
});
