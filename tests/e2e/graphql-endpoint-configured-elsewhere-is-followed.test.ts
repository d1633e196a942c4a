// The limiter follows the GraphQL plugin's configured `endpoint` (issue 35: strategies "following
// the GraphQL plugin's configured endpoint") and its pagination: a lone `*` path covers the REST
// prefix and that endpoint, not a hard-coded /graphql; GraphQL strategies count there; the limiter
// holds the schema the GraphQL plugin serves; and with the GraphQL plugin's default pagination (no
// defaultLimit: 10 items a list; maxLimit -1: no cap) the cost model pages lists as Strapi does
// (server/src/strapi/graphql-plugin.ts). Before the fix, POSTs to /gql were never counted by the
// lone `*` (the third answered 200), and no schema reached the plugin.
import path from 'node:path';
import type { GraphQLSchema } from 'graphql';
import { PACKAGE_ROOT } from '../../demo/boot-strapi';
import { GRAPHQL_CONFIG, graphqlAppForSuite } from '../support/graphql-app';

// The plugin runs from dist/ inside Strapi (its package entry): its per-instance state is read from
// that same module.
const { graphqlPluginSettings } = require(path.join(PACKAGE_ROOT, 'dist/server/src/strapi/graphql-plugin.js')) as typeof import('../../server/src/strapi/graphql-plugin');

describe('a GraphQL plugin served at /gql with its default pagination', () => {
  const suite = graphqlAppForSuite(
    {
      graphql: { extensions: true },
      strategy: [
        { methods: ['POST'], path: '*', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 2, window: '1h' } },
        { graphql: { query: ['articles'], charge: 'cost' }, identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 100, window: '1h' } },
      ],
    },
    { graphql: { endpoint: '/gql', apolloServer: GRAPHQL_CONFIG.apolloServer } },
  );

  it('is counted by a lone `*` strategy', async () => {
    const statuses = [];
    for (let attempt = 0; attempt < 3; attempt += 1) statuses.push((await suite.post('10.0.2.1', { query: '{ articles { title } }' }, '/gql')).status);
    expect(statuses).toEqual([200, 200, 429]);
  });

  it('is where GraphQL strategies count, paging lists as Strapi does: 10 items without a page size, no cap', async () => {
    const byDefault = await suite.post('10.0.2.2', { query: '{ articles { title } }' }, '/gql');
    const large = await suite.post('10.0.2.3', { query: '{ articles(pagination: { pageSize: 500 }) { title } }' }, '/gql');
    expect([byDefault.status, byDefault.body.extensions.rateLimit.cost, large.status, large.body.errors[0].extensions.cost]).toEqual([200, 10, 400, 500]);
  });

  it('gives the limiter its schema, with its page sizes', () => {
    const settings = graphqlPluginSettings(suite.app.strapi as never);
    const schema = settings.schema() as GraphQLSchema;
    expect([settings.endpoint, settings.defaultLimit, settings.maxLimit, ['articles', 'articles_connection'].map((field) => field in schema.getQueryType()!.getFields()), 'login' in schema.getMutationType()!.getFields()]).toEqual([
      '/gql',
      10,
      -1,
      [true, true],
      true,
    ]);
  });
});
