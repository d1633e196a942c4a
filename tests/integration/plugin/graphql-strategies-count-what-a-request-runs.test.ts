// Issue 35, through HTTP: a plain Koa app serving a graphql-js schema behind the plugin's middleware
// (the body of POST /graphql read by the plugin, as at its position in Strapi), on a real key-value
// REST server. Aliased logins are refused whole with at most `tokens` resolver runs, a refusal of
// several tokens neither spends the caller's remaining tokens nor blocks a smaller request, batches
// count every operation, GET counts as POST, cost charges what the model says, a login strategy
// leaves queries alone, route strategies still count /graphql as one request, and what the plugin
// will not read is a GraphQL error.
import { gzipSync } from 'node:zlib';
import { fixed, graphqlAppsForSuite, logins } from './graphql-app';

describe('GraphQL strategies in a Koa app', () => {
  const { open: graphqlApp } = graphqlAppsForSuite('graphql');

  it('refuse aliased logins whole, run at most `tokens` of them, and keep what a refused request did not take', async () => {
    const app = graphqlApp({ strategy: [{ graphql: { mutation: ['login'] }, identifierSource: 'ip', limiter: fixed(5) }] });
    const statuses: number[] = [];
    // 100 aliases cost more than the whole budget (answered by the plugin, taking 1); then 3 pass, 3 more are refused (1 left, kept), 1 passes, 1 is refused.
    for (const count of [100, 3, 3, 1, 1]) statuses.push((await app.request.post('/graphql').send(logins(count))).status);
    expect([statuses, app.runs.login]).toEqual([[400, 200, 429, 200, 429], 4]);
  });

  it('answer a refusal as a GraphQL error with the usual headers', async () => {
    const app = graphqlApp({ strategy: [{ graphql: { mutation: ['login'] }, identifierSource: 'ip', limiter: fixed(2) }] });
    const tooCostly = await app.request.post('/graphql').send(logins(3));
    await app.request.post('/graphql').send(logins(1));
    const refused = await app.request.post('/graphql').send(logins(1));
    expect([refused.status, refused.body.errors[0].message, refused.body.errors[0].extensions.code, refused.body.errors[0].extensions.cost, refused.body.errors[0].extensions.limit, typeof refused.headers['retry-after'], refused.headers.ratelimit?.startsWith('limit=2, remaining=0')]).toEqual([
      429,
      'Too many requests, please try again later',
      'RATE_LIMITED',
      1,
      2,
      'string',
      true,
    ]);
    expect([tooCostly.status, tooCostly.body]).toEqual([400, { errors: [{ message: 'This request costs 3, more than the 2 strategy[0] allows a caller per window: ask for fewer fields, aliases or items', extensions: { code: 'QUERY_TOO_COSTLY', cost: 3, limit: 2 } }] }]);
  });

  it('count every operation of a batch', async () => {
    const app = graphqlApp({ strategy: [{ graphql: { mutation: ['login'] }, identifierSource: 'ip', limiter: fixed(5) }] });
    const statuses: number[] = [];
    for (const size of [10, 3, 3, 1]) statuses.push((await app.request.post('/graphql').send(Array.from({ length: size }, () => logins(1)))).status);
    expect([statuses, app.runs.login]).toEqual([[400, 200, 429, 200], 4]);
  });

  it('count GET and POST alike, and leave fields they do not name alone', async () => {
    const app = graphqlApp({ strategy: [{ graphql: { query: ['articles'] }, identifierSource: 'ip', limiter: fixed(4) }] });
    const query = '{ a: articles { title } }';
    const statuses: number[] = [];
    for (let i = 0; i < 2; i++) statuses.push((await app.request.get('/graphql').query({ query })).status, (await app.request.post('/graphql').send({ query })).status);
    statuses.push((await app.request.get('/graphql').query({ query })).status, (await app.request.post('/graphql').send({ query })).status);
    const me = await app.request.post('/graphql').send({ query: '{ me { name } }' });
    expect([statuses, app.runs.articles, me.status, me.headers.ratelimit]).toEqual([[200, 200, 200, 200, 429, 429], 4, 200, undefined]);
  });

  it('charge a cost strategy what the model says, and report it in extensions when asked', async () => {
    const app = graphqlApp({
      graphql: { extensions: true },
      strategy: [{ graphql: { query: ['articles', 'articles_connection'], charge: 'cost' }, identifierSource: 'ip', limiter: { algorithm: 'token-bucket', tokens: 100, window: '1h' } }],
    });
    // 10 x (1 + author 1) = 20; then 4 x (1 + 1 + 5) = 28; then 100 (capped at maxLimit) > 52 left; then a connection of 50: 1 + 50 = 51.
    const costs: unknown[] = [];
    for (const query of [
      '{ articles(pagination: { pageSize: 10 }) { title author { name } } }',
      '{ articles(pagination: { pageSize: 4 }) { author { articles(pagination: { pageSize: 5 }) { title } } } }',
      '{ articles(pagination: { pageSize: 1000 }) { title } }',
      '{ articles_connection(pagination: { pageSize: 50 }) { nodes { title } } }',
    ]) {
      const response = await app.request.post('/graphql').send({ query });
      costs.push([response.status, response.body.extensions?.rateLimit?.cost ?? response.body.errors?.[0]?.extensions?.cost, response.body.extensions?.rateLimit?.remaining]);
    }
    expect(costs).toEqual([
      [200, 20, 80],
      [200, 28, 52],
      [429, 100, undefined],
      [200, 51, 1],
    ]);
  });

  it('keep route strategies counting /graphql as one request', async () => {
    const app = graphqlApp({
      strategy: [
        { methods: ['ALL'], path: '/graphql', identifierSource: 'ip', limiter: fixed(2) },
        { graphql: { mutation: ['login'] }, identifierSource: 'ip', limiter: fixed(100) },
      ],
    });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await app.request.post('/graphql').send(logins(10))).status);
    expect([statuses, app.runs.login]).toEqual([[200, 200, 429], 20]);
  });

  it("answer an automatic persisted query's unknown hash as Apollo does, counted on route strategies only", async () => {
    const app = graphqlApp({ strategy: [{ methods: ['ALL'], path: '/graphql', identifierSource: 'ip', limiter: fixed(2) }, { graphql: { mutation: ['login'] }, identifierSource: 'ip', limiter: fixed(1) }] });
    const hashOnly = { extensions: { persistedQuery: { version: 1, sha256Hash: 'ab'.repeat(32) } } };
    const answers: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await app.request.post('/graphql').send(hashOnly);
      answers.push([response.status, response.body.errors[0].extensions.code]);
    }
    const [route, login] = (await app.limiter.readUsage()).strategies;
    expect([answers, route.callers.map(({ used }) => used), login.callers]).toEqual([
      [
        [200, 'PERSISTED_QUERY_NOT_FOUND'],
        [200, 'PERSISTED_QUERY_NOT_FOUND'],
        [429, 'RATE_LIMITED'],
      ],
      [2],
      [],
    ]);
  });

  it('read compressed and form-encoded bodies as the GraphQL route would, and count them', async () => {
    const app = graphqlApp({ strategy: [{ graphql: { mutation: ['login'] }, identifierSource: 'ip', limiter: fixed(5) }] });
    const gzipped = await app.request.post('/graphql').set('Content-Type', 'application/json').set('Content-Encoding', 'gzip').serialize((body) => body).send(gzipSync(JSON.stringify(logins(3))));
    const form = await app.request.post('/graphql').type('form').send({ query: logins(3).query });
    expect([gzipped.status, form.status, form.body.errors[0].extensions.cost, app.runs.login]).toEqual([200, 429, 3, 3]);
  });

  it('answer what it will not read with a GraphQL error: not JSON, too large, too slow', async () => {
    const app = graphqlApp({ graphql: { maxBodyBytes: 1000, bodyTimeoutMs: 200 }, strategy: [{ graphql: { mutation: ['login'] }, identifierSource: 'ip', limiter: fixed(100) }] });
    const notJson = await app.request.post('/graphql').set('Content-Type', 'application/json').send('{"query": "mutation { login');
    const tooLarge = await app.request.post('/graphql').send({ query: `# ${'x'.repeat(2000)}\nmutation { login { jwt } }` });
    const slow = app.request.post('/graphql').set('Content-Type', 'application/json').set('Content-Length', '100');
    slow.write('{"query":');
    const slowAnswer = await slow;
    expect([notJson.status, notJson.body.errors[0].extensions.code, tooLarge.status, tooLarge.body.errors[0].message, slowAnswer.status, slowAnswer.body.errors[0].extensions.code, app.runs.login]).toEqual([
      400,
      'BAD_REQUEST',
      413,
      'The request body is larger than 1000 bytes (graphql.maxBodyBytes)',
      408,
      'REQUEST_TIMEOUT',
      undefined,
    ]);
  });
});
