// Issue 35 ("Query cost"): the cost model of docs/graphql.md, its worked examples computed before
// anything runs: object fields 1, leaves 0, lists times their page size (pagination argument, literal
// or variable, else defaultLimit 25, capped at maxLimit 100), nested lists multiplied, connections
// giving their page size to `nodes`, and the conservative rule without a schema.
import { chargesOf, postedContext, schema } from './support';

const cost = async (query: string, options: { variables?: Record<string, unknown>; withSchema?: boolean } = {}) =>
  (await chargesOf([{ query: ['*'], mutation: ['*'], charge: 'cost' }], { schema: options.withSchema === false ? undefined : schema }).charge(postedContext({ query, variables: options.variables }))).charges[0];

describe('the cost of a request', () => {
  it('charges each object a point and multiplies lists by their page size', async () => {
    expect([
      // A list of 10 articles, leaves only: 10 x (1 + 0).
      await cost('{ articles(pagination: { pageSize: 10 }) { title } }'),
      // The default page size: 25 x 1.
      await cost('{ articles { title } }'),
      // Capped at maxLimit: 100 x 1; -1 means maxLimit too.
      await cost('{ articles(pagination: { pageSize: 1000 }) { title } }'),
      await cost('{ articles(pagination: { limit: -1 }) { title } }'),
      // Each article's author is an object: 10 x (1 + 1).
      await cost('{ articles(pagination: { pageSize: 10 }) { title author { name } } }'),
      // Nested lists multiply: 10 x (1 + 1 + 5 x 1) = 70.
      await cost('{ articles(pagination: { pageSize: 10 }) { author { articles(pagination: { pageSize: 5 }) { title } } } }'),
      // From the variables.
      await cost('query ($p: PaginationArg) { articles(pagination: $p) { title } }', { variables: { p: { pageSize: 7 } } }),
      await cost('query ($n: Int) { articles(pagination: { pageSize: $n }) { title } }', { variables: { n: 3 } }),
      // A connection gives its page size to its nodes: 1 + 4 x 1 + 1 (pageInfo).
      await cost('{ articles_connection(pagination: { pageSize: 4 }) { nodes { title } pageInfo { total } } }'),
      // Aliases each cost: 2 x 10.
      await cost('{ a: articles(pagination: { pageSize: 10 }) { title } b: articles(pagination: { pageSize: 10 }) { title } }'),
      // A root field costs at least 1, a scalar one included.
      await cost('mutation { forgotPassword(email: "x") }'),
    ]).toEqual([10, 25, 100, 100, 20, 70, 7, 3, 6, 20, 1]);
  });

  it('counts a fragment once per selection set and only the selections @skip/@include do not exclude with a literal', async () => {
    expect([
      await cost('{ articles(pagination: { pageSize: 10 }) { ...A ...A } } fragment A on Article { author { name } }'),
      await cost('{ articles(pagination: { pageSize: 10 }) { author @skip(if: true) { name } } }'),
      await cost('query ($s: Boolean!) { articles(pagination: { pageSize: 10 }) { author @skip(if: $s) { name } } }', { variables: { s: true } }),
    ]).toEqual([20, 10, 20]);
  });

  it('pages a list by a variable\'s declared default when the request does not give the variable', async () => {
    // Review of issue 35: the default was ignored, so `$n: Int = 100000` sent without n cost defaultLimit.
    expect([
      await cost('query ($n: Int = 50) { articles(pagination: { pageSize: $n }) { title } }'),
      await cost('query ($p: PaginationArg = { pageSize: 60 }) { articles(pagination: $p) { title } }'),
      await cost('query ($n: Int = 50) { articles(pagination: { pageSize: $n }) { title } }', { variables: { n: 3 } }),
    ]).toEqual([50, 60, 3]);
  });

  it('without a schema takes every field with selections for a list (an upper bound)', async () => {
    expect([
      await cost('{ articles(pagination: { pageSize: 10 }) { title author { name } } }', { withSchema: false }),
      await cost('{ me { name } }', { withSchema: false }),
    ]).toEqual([10 * (1 + 25), 25]);
  });

  it('saturates instead of overflowing, far above any budget', async () => {
    const nested = (depth: number): string => (depth === 0 ? 'title' : `author { articles(pagination: { pageSize: 100 }) { ${nested(depth - 1)} } }`);
    expect(await cost(`{ articles(pagination: { pageSize: 100 }) { ${nested(9)} } }`)).toBe(2 ** 40);
  });
});

describe('the GraphQL options of the middleware', () => {
  it('keep their defaults for fields given as undefined (a GraphQL plugin config without defaultLimit)', async () => {
    const { createRateLimitMiddleware } = await import('../../../server/src');
    const { default: supertest } = await import('supertest');
    const { startKoaApp } = await import('../../fixtures/koa-app');
    const limiter = createRateLimitMiddleware(
      { strategy: [{ graphql: { query: ['articles'], charge: 'cost' }, identifierSource: 'ip', limiter: { algorithm: 'token-bucket', tokens: 1000, window: '1h' } }], graphql: { extensions: true } },
      { environment: 'development', graphql: { endpoint: '/graphql', defaultLimit: undefined, maxLimit: undefined, schema: () => schema } },
    );
    const app = startKoaApp([limiter], (ctx) => void (ctx.body = { data: {} }));
    try {
      const response = await supertest(app.server).post('/graphql').send({ query: '{ a: articles { title } b: articles(pagination: { pageSize: 500 }) { title } }' });
      expect(response.body.extensions.rateLimit.cost).toBe(25 + 100);
    } finally {
      app.close();
      limiter.close();
    }
  });
});
