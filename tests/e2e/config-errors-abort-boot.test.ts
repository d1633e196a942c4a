// A wrong plugin config aborts Strapi's boot with a message that names the offending field.
import { bootStrapiApp } from '../support/strapi-app';
import { startStrapiChild } from '../fixtures/strapi-child';

const strategy = (limiter: Record<string, unknown>) => [{ methods: ['GET'], path: '/api/ping', identifierSource: 'ip', limiter }];

describe('config errors abort boot', () => {
  it.each([
    ['a bad window', { url: 'http://127.0.0.1:1', token: 't', strategy: strategy({ algorithm: 'fixed-window', tokens: 1, window: '20 sec' }) }, /strategy\[0\]\.limiter\.window/],
    ['an unknown algorithm', { url: 'http://127.0.0.1:1', token: 't', strategy: strategy({ algorithm: 'leaky', tokens: 1, window: '1s' }) }, /strategy\[0\]\.limiter\.algorithm/],
    ['the tokenBucket spelling', { url: 'http://127.0.0.1:1', token: 't', strategy: strategy({ algorithm: 'tokenBucket', tokens: 1, window: '1s' }) }, /token-bucket/],
    ['a url without its token', { url: 'http://127.0.0.1:1', strategy: strategy({ algorithm: 'fixed-window', tokens: 1, window: '1s' }) }, /token: is required with an http\(s\) url/],
  ])('refuses %s', async (_case, config, message) => {
    await expect(bootStrapiApp({ config })).rejects.toThrow(message);
  });

  // In its own process: NODE_ENV is read once per process, by Strapi and by the plugin alike.
  it('zero-config: refuses a missing url in production (NODE_ENV=production), naming the three store forms', async () => {
    const config = { strategy: strategy({ algorithm: 'fixed-window', tokens: 1, window: '1s' }) };
    await expect(startStrapiChild({ config, env: { NODE_ENV: 'production' } })).rejects.toThrow(/url: is required in production: a key-value REST url with its token .*, a Redis url .*, or a Sentinel or Cluster url /s);
  });
});
