// The Strapi server plugin: bootstrap() adds the limiter through strapi.server.use unless the app
// placed `plugin::ratelimit.limit` itself (never both), one limiter per instance, and config errors abort.
import type { Context, Middleware } from 'koa';
import strapiServer from '../../../strapi-server';
import { RateLimitConfigError } from '../../../server/src';
import { configSchema } from '../../../server/src/config/schema';
import { fakeStrapi } from '../../support/fake-strapi';

const strapiWith = (pluginConfig: unknown, middlewares: unknown[] = ['strapi::errors', 'strapi::router']) =>
  fakeStrapi({ 'plugin::ratelimit': pluginConfig, middlewares, 'api.rest.prefix': '/api' });

const config = { url: 'http://127.0.0.1:1', token: 't', strategy: [] };

describe('strapi-server plugin', () => {
  it('adds the limiter in bootstrap through strapi.server.use', () => {
    const { strapi, used } = strapiWith(config);
    strapiServer.bootstrap({ strapi });
    expect(used).toHaveLength(1);
    strapiServer.destroy({ strapi });
  });

  it.each([['plugin::ratelimit.limit'], [{ name: 'plugin::ratelimit.limit', config: {} }]])('leaves it to the app when config/middlewares lists %j', (entry) => {
    const { strapi, used } = strapiWith(config, ['strapi::errors', entry, 'strapi::router']);
    const placed = strapiServer.middlewares.limit({}, { strapi });
    strapiServer.bootstrap({ strapi });
    expect(used).toEqual([]);
    // The named middleware and the plugin share one limiter (one block cache, one store client).
    expect(strapiServer.middlewares.limit({}, { strapi })).toBe(placed);
    strapiServer.destroy({ strapi });
  });

  it('gives each Strapi instance its own limiter, released by destroy', () => {
    const first = strapiWith(config);
    const second = strapiWith({ ...config, prefix: 'other' });
    strapiServer.bootstrap({ strapi: first.strapi });
    strapiServer.bootstrap({ strapi: second.strapi });
    expect(first.used[0]).not.toBe(second.used[0]);
    expect((second.used[0] as unknown as { config: { prefix: string } }).config.prefix).toBe('other');
    strapiServer.destroy({ strapi: first.strapi });
    expect(strapiServer.middlewares.limit({}, { strapi: first.strapi })).not.toBe(first.used[0]);
    strapiServer.destroy({ strapi: first.strapi });
    strapiServer.destroy({ strapi: second.strapi });
  });

  it('adds nothing while disabled', () => {
    const { strapi, used } = strapiWith({ enabled: false });
    strapiServer.bootstrap({ strapi });
    expect(used).toEqual([]);
    strapiServer.destroy({ strapi });
  });

  it('parses its config once per boot: what the validator parsed serves bootstrap, the named middleware and the admin API', async () => {
    const { strapi, used } = strapiWith({ ...config, strategy: [{ methods: ['GET'], path: '/api/*', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 1, window: '1m' } }] });
    const parses = jest.spyOn(configSchema, 'safeParse');
    try {
      // Strapi validates the merged config object, then serves that same object as plugin::ratelimit.
      strapiServer.config.validator(strapi.config.get('plugin::ratelimit'));
      strapiServer.bootstrap({ strapi });
      const ctx = { query: {}, request: { body: { strategy: 0, identifier: 'x:y' } }, status: 404, body: undefined } as unknown as Context;
      await strapiServer.controllers.usage({ strapi }).reset(ctx);
      expect([parses.mock.calls.length, strapiServer.middlewares.limit({}, { strapi }), ctx.status]).toEqual([1, used[0], 400]);
    } finally {
      parses.mockRestore();
      strapiServer.destroy({ strapi });
    }
  });

  it('refuses a bad config in the validator with the path of the field', () => {
    expect(() => strapiServer.config.validator({ ...config, strategy: [{ methods: ['GET'], path: '/x', identifierSource: 'ip', limiter: { algorithm: 'tokenBucket', tokens: 1, window: '1s' } }] })).toThrow(
      new RateLimitConfigError(['strategy[0].limiter.algorithm: "tokenBucket" is not accepted: write "token-bucket"']),
    );
    expect(strapiServer.config.default).toEqual({ enabled: true, prefix: '@cms', analytics: false, strategy: [] });
  });
});
