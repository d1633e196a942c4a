// Behind a proxy (`server.proxy: { koa: true, maxIpsCount: 1 }`) the caller is the address the
// proxy appended to X-Forwarded-For, not one the client wrote itself.
import { Redis } from '@upstash/redis';
import { strapiAppWithStoreForSuite } from '../support/strapi-app';

describe('client IP behind a proxy', () => {
  const suite = strapiAppWithStoreForSuite({ strategy: [{ methods: ['GET'], path: '/api/ping', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 2, window: '1h' } }] }, { proxy: { koa: true, maxIpsCount: 1 } });

  it('keys by the hop the proxy appended, so a spoofed first entry changes nothing', async () => {
    const statuses: number[] = [];
    for (const spoofed of ['1.1.1.1', '2.2.2.2', '3.3.3.3']) {
      statuses.push((await suite.app.request.get('/api/ping').set('X-Forwarded-For', `${spoofed}, 203.0.113.9`)).status);
    }
    expect(statuses).toEqual([200, 200, 429]);
    const keys = await new Redis({ url: suite.kv.url, token: suite.kv.token }).keys('@cms:*');
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.every((key) => key.includes('203.0.113.9'))).toBe(true);
  });
});
