// The limiter follows the GraphQL plugin's configured `endpoint` (issue 35: strategies "following
// the GraphQL plugin's configured endpoint"): a lone `*` path covers the REST prefix and that
// endpoint, not a hard-coded /graphql, and the limiter holds the schema the GraphQL plugin serves
// there (server/src/strapi/graphql-plugin.ts). Before the fix, POSTs to /gql were never counted:
// the third answered 200.
import path from 'node:path';
import type { GraphQLSchema } from 'graphql';
import { PACKAGE_ROOT } from '../../demo/boot-strapi';
import { GRAPHQL_CONFIG, graphqlAppForSuite } from '../support/graphql-app';

// The plugin runs from dist/ inside Strapi (its package entry): its per-instance state is read from
// that same module.
const { graphqlPluginSettings } = require(path.join(PACKAGE_ROOT, 'dist/server/src/strapi/graphql-plugin.js')) as typeof import('../../server/src/strapi/graphql-plugin');

describe('a GraphQL plugin served at /gql', () => {
  const suite = graphqlAppForSuite(
    { strategy: [{ methods: ['POST'], path: '*', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 2, window: '1h' } }] },
    { graphql: { ...GRAPHQL_CONFIG, endpoint: '/gql' } },
  );

  it('is counted by a lone `*` strategy', async () => {
    const statuses = [];
    for (let attempt = 0; attempt < 3; attempt += 1) statuses.push((await suite.post('10.0.2.1', { query: '{ articles { title } }' }, '/gql')).status);
    expect(statuses).toEqual([200, 200, 429]);
  });

  it('gives the limiter its schema, with its page sizes', () => {
    const settings = graphqlPluginSettings(suite.app.strapi as never);
    const schema = settings.schema() as GraphQLSchema;
    expect([settings.endpoint, settings.defaultLimit, settings.maxLimit, ['articles', 'articles_connection'].map((field) => field in schema.getQueryType()!.getFields()), 'login' in schema.getMutationType()!.getFields()]).toEqual([
      '/gql',
      25,
      100,
      [true, true],
      true,
    ]);
  });
});
