// In a real Strapi app booted with `proxy: { koa: true }` and no maxIpsCount, the plugin logs its
// one warning at boot, through Strapi's logger, saying how to fix the setting.
import { startKvRestServer, type KvRestServer } from '../../mock';
import { bootStrapiApp, type StrapiApp } from '../support/strapi-app';

describe('boot with a permissive proxy setting', () => {
  let kv: KvRestServer;
  let app: StrapiApp;
  const written: string[] = [];

  beforeAll(async () => {
    kv = await startKvRestServer();
    // Strapi's logger writes to stdout; the warning is logged while Strapi boots.
    const write = process.stdout.write.bind(process.stdout);
    const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
      written.push(String(chunk));
      return write(chunk, ...(rest as []));
    });
    try {
      app = await bootStrapiApp({
        proxy: { koa: true },
        config: { url: kv.url, token: kv.token, strategy: [{ methods: ['GET'], path: '/api/ping', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 2, window: '1m' } }] },
      });
    } finally {
      spy.mockRestore();
    }
  });
  afterAll(async () => {
    await app?.close();
    await kv?.close();
  });

  it('logs once that proxy.koa without maxIpsCount lets clients choose their IP, and how to fix it', () => {
    const warnings = written.join('').split('\n').filter((line) => line.includes('proxy.koa is true without proxy.maxIpsCount'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('Set proxy: { koa: true, maxIpsCount: <the number of proxies in front of Strapi> }');
  });
});
