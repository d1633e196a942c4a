// Issue 35 review ("middleware placement vs strapi::body"): an app that lists plugin::ratelimit.limit
// before strapi::body in config/middlewares, with a GraphQL strategy, has JSON GraphQL requests at
// `/graphql/` or `/graphql?x=1` read by the plugin and again by strapi::body, which finds the stream
// spent and is answered 500 (tests/integration/plugin/a-graphql-body-reaches-apollo-as-counted-
// wherever-the-plugin-sits). Boot says so and names the placement that works; it says nothing when
// the limiter comes after strapi::body, is added by the plugin itself, or reads no bodies (no
// GraphQL strategy). Before this warning, boot said nothing in every case.
import strapiServer from '../../../strapi-server';
import { fakeStrapi } from '../../support/fake-strapi';

const limiter = { algorithm: 'fixed-window', tokens: 5, window: '1m' };
const graphqlStrategy = { graphql: { mutation: ['login'] }, identifierSource: 'ip', limiter };
const routeStrategy = { methods: ['GET'], path: '/api/*', identifierSource: 'ip', limiter };

async function bootWarnings(middlewares: unknown[], strategy: unknown[], endpoint?: string): Promise<string[]> {
  const { strapi, lines } = fakeStrapi({ 'plugin::ratelimit': { strategy }, middlewares, 'plugin::graphql': endpoint === undefined ? undefined : { endpoint } });
  await strapiServer.bootstrap({ strapi });
  strapiServer.destroy({ strapi });
  return lines.warn;
}

describe('the boot of an app whose config/middlewares lists the limiter', () => {
  it('warns, naming the fix, when the limiter comes before strapi::body and a GraphQL strategy reads bodies', async () => {
    expect([
      await bootWarnings(['strapi::errors', 'plugin::ratelimit.limit', 'strapi::body', 'strapi::router'], [graphqlStrategy]),
      await bootWarnings(['strapi::errors', { name: 'plugin::ratelimit.limit' }, { name: 'strapi::body', config: {} }], [routeStrategy, graphqlStrategy], '/api/graphql'),
    ]).toEqual([
      [
        '[ratelimit] config/middlewares lists plugin::ratelimit.limit before strapi::body: a GraphQL request at /graphql/ or /graphql?... has its body read by the plugin and then again by strapi::body, which skips only /graphql exactly, and is answered 500. List plugin::ratelimit.limit after strapi::body.',
      ],
      [
        '[ratelimit] config/middlewares lists plugin::ratelimit.limit before strapi::body: a GraphQL request at /api/graphql/ or /api/graphql?... has its body read by the plugin and then again by strapi::body, which skips only /api/graphql exactly, and is answered 500. List plugin::ratelimit.limit after strapi::body.',
      ],
    ]);
  });

  it('says nothing when the limiter comes after strapi::body, is added by the plugin, or no strategy reads bodies', async () => {
    expect([
      await bootWarnings(['strapi::errors', 'strapi::body', 'plugin::ratelimit.limit', 'strapi::router'], [graphqlStrategy]),
      await bootWarnings(['strapi::errors', 'strapi::body', 'strapi::router'], [graphqlStrategy]),
      await bootWarnings(['strapi::errors', 'plugin::ratelimit.limit', 'strapi::body'], [routeStrategy]),
    ]).toEqual([[], [], []]);
  });
});
