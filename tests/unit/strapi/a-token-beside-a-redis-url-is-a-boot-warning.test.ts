// Issue 34 (tried as a new user would): the README's quick start puts RATELIMIT_TOKEN in .env for
// the local REST server; pointing RATELIMIT_URL at Redis in production then stopped the boot
// ("token: is not used with a Redis url"). A Redis url takes no token: one left beside it is now
// ignored, with one warning at boot saying so and how to silence it.
import strapiServer from '../../../strapi-server';
import { closedPortUrl } from '../../fixtures/ports';
import { fakeStrapi } from '../../support/fake-strapi';

const strategy = [{ methods: ['GET'], path: '/api/x', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 5, window: '1m' } }];

describe('a token beside a Redis url, in production', () => {
  it('boots, warning once that the token is ignored', async () => {
    const url = (await closedPortUrl()).replace(/^http:/, 'redis:');
    const { strapi, lines } = fakeStrapi({ environment: 'production', 'plugin::ratelimit': { url, token: 'dev-token', strategy }, middlewares: [] });
    await strapiServer.bootstrap({ strapi });
    strapiServer.destroy({ strapi });
    expect(lines.warn.filter((line) => line.includes('token'))).toEqual([
      '[ratelimit] a token is configured beside a Redis url, which takes none: the token is ignored (the Redis user and password go in the url, redis://user:password@host:6379); remove it (RATELIMIT_TOKEN in the documented config) to silence this',
    ]);
  });
});
