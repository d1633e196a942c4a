// In a real Strapi app booted with `proxy: { koa: true }` and no maxIpsCount, the plugin logs its
// one warning at boot, through Strapi's logger, saying how to fix the setting.
import { startKvRestServer, type KvRestServer } from '../../mock';
import { bootStrapiApp, type StrapiApp } from '../support/strapi-app';

describe('boot with a permissive proxy setting', () => {
  let kv: KvRestServer;
  let app: StrapiApp;
  const written: string[] = [];
  const spies: jest.SpyInstance[] = [];

  beforeAll(async () => {
    kv = await startKvRestServer();
    // The warning is logged while Strapi boots, through Strapi's logger (winston): its console
    // transport is watched, whichever way jest's console then prints the line.
    const consoleTransport = require(require.resolve('winston/lib/winston/transports/console', { paths: [require.resolve('@strapi/logger')] })) as {
      prototype: { log(info: Record<string | symbol, unknown>, next: () => void): void };
    };
    spies.push(
      jest.spyOn(consoleTransport.prototype, 'log').mockImplementation((info, next) => {
        written.push(String(info.message));
        next();
      }),
    );
    app = await bootStrapiApp({
      proxy: { koa: true },
      config: { url: kv.url, token: kv.token, strategy: [{ methods: ['GET'], path: '/api/ping', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 2, window: '1m' } }] },
    });
  });
  afterAll(async () => {
    spies.forEach((spy) => spy.mockRestore());
    await app?.close();
    await kv?.close();
  });

  it('logs once that proxy.koa without maxIpsCount lets clients choose their IP, and how to fix it', () => {
    const warnings = written.filter((line) => line.includes('proxy.koa is true without proxy.maxIpsCount'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('Set proxy: { koa: true, maxIpsCount: <the number of proxies in front of Strapi> }');
  });
});
