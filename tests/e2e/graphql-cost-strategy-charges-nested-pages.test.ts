// A GraphQL strategy with `charge: 'cost'` takes what the cost model says a request costs
// (docs/graphql.md, "Cost"), before anything runs, in a real Strapi whose schema the plugin reads
// from the GraphQL plugin (issue 35, "cost limits on a nested paginated query charge what the model
// says"): a list costs its page size times (1 + what each item selects), scalars cost nothing,
// page sizes default to the GraphQL plugin's defaultLimit (25 here) and are capped at its maxLimit
// (100 here). `pageSize: 100` and `pageSize: 1` no longer cost the same. Field types come from the
// schema the GraphQL plugin serves (server/src/strapi/graphql-plugin.ts): before it reached the
// limiter, `articles_connection`, an object, was costed as a list of 25 (510 instead of 12).
import { graphqlAppForSuite } from '../support/graphql-app';

const BUDGET = 100;

describe('a cost strategy of 100 points per IP on articles and articles_connection', () => {
  const suite = graphqlAppForSuite({
    graphql: { extensions: true },
    strategy: [{ graphql: { query: ['articles', 'articles_connection'], charge: 'cost' }, identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: BUDGET, window: '1h' } }],
  });

  /** The cost and what is left, as the allowed response's extensions.rateLimit tell them. */
  const charged = async (ip: string, query: string) => {
    const response = await suite.post(ip, { query });
    return [response.status, response.body.extensions?.rateLimit?.cost, response.body.extensions?.rateLimit?.remaining];
  };

  it('charges a nested paginated query (1 + 5 comments) x 10 articles = 60', async () => {
    expect(await charged('10.0.5.1', '{ articles(pagination: { pageSize: 10 }) { title comments(pagination: { pageSize: 5 }) { body } } }')).toEqual([200, 60, 40]);
  });

  it('charges the page size a list asks for: 1 for pageSize 1, 25 (defaultLimit) without one, and variables are read', async () => {
    const costs = [
      await charged('10.0.5.2', '{ articles(pagination: { pageSize: 1 }) { title } }'),
      await charged('10.0.5.2', '{ articles { title } }'),
    ];
    const withVariables = await suite.post('10.0.5.2', { query: 'query Page($size: Int) { articles(pagination: { limit: $size }) { title } }', variables: { size: 3 } });
    expect([...costs, [withVariables.status, withVariables.body.extensions?.rateLimit?.cost, withVariables.body.extensions?.rateLimit?.remaining]]).toEqual([
      [200, 1, 99],
      [200, 25, 74],
      [200, 3, 71],
    ]);
  });

  it('charges the page size a variable named __proto__ takes by its declared default, which Strapi serves', async () => {
    // Issue 35 hardening: the default was assigned to the prototype's setter of a plain object, so the plugin read no page size (25: cost 27).
    const response = await suite.post('10.0.5.6', { query: 'query Page($__proto__: Int = 40) { articles_connection(pagination: { pageSize: $__proto__ }) { nodes { title } pageInfo { pageSize } } }' });
    expect([response.status, response.body.data?.articles_connection?.pageInfo, response.body.extensions?.rateLimit?.cost]).toEqual([200, { pageSize: 40 }, 1 + 40 + 1]);
  });

  it('caps a page size at maxLimit and refuses, with its cost, a request costing more than what is left', async () => {
    const allowed = await charged('10.0.5.3', '{ articles(pagination: { pageSize: 50 }) { title } }');
    const refused = await suite.post('10.0.5.3', { query: '{ articles(pagination: { pageSize: 1000 }) { title } }' });
    expect([allowed, refused.status, refused.body.errors[0].extensions]).toEqual([
      [200, 50, 50],
      429,
      expect.objectContaining({ code: 'RATE_LIMITED', cost: 100, limit: BUDGET }),
    ]);
  });

  it('refuses a request costing more than the whole budget with a message giving its cost and the maximum, taking 1 token', async () => {
    const refused = await suite.post('10.0.5.4', { query: '{ articles(pagination: { pageSize: 100 }) { comments(pagination: { pageSize: 100 }) { body } } }' });
    expect([refused.status, refused.body.errors[0].extensions.cost, refused.body.errors[0].extensions.limit, refused.body.errors[0].message]).toEqual([400, 10_100, BUDGET, expect.stringMatching(/10100.*100/)]);
    expect(await charged('10.0.5.4', '{ articles(pagination: { pageSize: 1 }) { title } }')).toEqual([200, 1, 98]);
  });

  it('costs by the schema\'s types: a connection is one object whose nodes take its page size (1 + 10 + 1 for pageInfo = 12)', async () => {
    expect(await charged('10.0.5.5', '{ articles_connection(pagination: { pageSize: 10 }) { nodes { title } pageInfo { total } } }')).toEqual([200, 12, 88]);
  });
});
