// A wrong plugin config aborts Strapi's boot with a message that names the offending field.
import { bootStrapiApp } from '../support/strapi-app';

const strategy = (limiter: Record<string, unknown>) => [{ methods: ['GET'], path: '/api/ping', identifierSource: 'ip', limiter }];

describe('config errors abort boot', () => {
  it.each([
    ['a bad window', { url: 'http://127.0.0.1:1', token: 't', strategy: strategy({ algorithm: 'fixed-window', tokens: 1, window: '20 sec' }) }, /strategy\[0\]\.limiter\.window/],
    ['an unknown algorithm', { url: 'http://127.0.0.1:1', token: 't', strategy: strategy({ algorithm: 'leaky', tokens: 1, window: '1s' }) }, /strategy\[0\]\.limiter\.algorithm/],
    ['the tokenBucket spelling', { url: 'http://127.0.0.1:1', token: 't', strategy: strategy({ algorithm: 'tokenBucket', tokens: 1, window: '1s' }) }, /token-bucket/],
    ['a missing url', { token: 't', strategy: strategy({ algorithm: 'fixed-window', tokens: 1, window: '1s' }) }, /url/],
  ])('refuses %s', async (_case, config, message) => {
    await expect(bootStrapiApp({ config })).rejects.toThrow(message);
  });
});
