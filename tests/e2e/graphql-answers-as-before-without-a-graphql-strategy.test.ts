// An app serving Strapi's GraphQL plugin with no GraphQL strategy behaves as it did before GraphQL
// strategies existed (issue 35, "an app with no GraphQL strategy behaves as today"): with a route
// strategy on POST /graphql, queries, logins and GETs are answered by Apollo (the request body is
// read once, by the GraphQL route, and reaches it whole), each POST takes one token whatever it
// runs, and the refusal is the route strategy's usual one.
import { ARTICLES, COMMENTS_PER_ARTICLE, graphqlAppForSuite, loginMutation } from '../support/graphql-app';

describe('a GraphQL app with only a route strategy on its endpoint', () => {
  const suite = graphqlAppForSuite({
    strategy: [{ methods: ['POST'], path: '/graphql', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 3, window: '1h' } }],
  });

  it('answers a nested query, counting the POST once with the usual rate-limit headers', async () => {
    const response = await suite.post('10.0.1.1', { query: '{ articles { title comments { body } } }' });
    expect([response.status, response.headers.ratelimit, response.body.data.articles.map((article: { comments: unknown[] }) => article.comments.length)]).toEqual([
      200,
      expect.stringMatching(/limit=3, remaining=2, reset=\d+/),
      Array.from({ length: ARTICLES }, () => COMMENTS_PER_ARTICLE),
    ]);
  });

  it('answers a login with its token after one password check: the body reaches Apollo whole', async () => {
    const checksBefore = suite.passwordChecks();
    const response = await suite.post('10.0.1.2', { query: loginMutation() });
    expect([response.status, typeof response.body.data.login.jwt, suite.passwordChecks() - checksBefore]).toEqual([200, 'string', 1]);
  });

  it('answers the fixture\'s database-free ping query (the benchmark\'s GraphQL request)', async () => {
    const response = await suite.post('10.0.1.5', { query: '{ ping { ok } }' });
    expect([response.status, response.body]).toEqual([200, { data: { ping: { ok: true } } }]);
  });

  it('answers GET ?query= without counting it on the POST strategy', async () => {
    const responses = [];
    for (let attempt = 0; attempt < 4; attempt += 1) responses.push(await suite.get('10.0.1.3', '{ articles { title } }'));
    expect(responses.map((response) => [response.status, response.headers.ratelimit, response.body.data.articles.length])).toEqual(Array.from({ length: 4 }, () => [200, undefined, ARTICLES]));
  });

  it('takes one token for a request of 3 aliased logins and refuses the 4th POST with the route strategy\'s usual 429', async () => {
    const statuses = [];
    for (let attempt = 0; attempt < 3; attempt += 1) statuses.push((await suite.post('10.0.1.4', { query: loginMutation(3) })).status);
    const refused = await suite.post('10.0.1.4', { query: loginMutation() });
    expect([...statuses, refused.status, refused.body.error.name, refused.headers['retry-after'] !== undefined]).toEqual([200, 200, 200, 429, 'RateLimitError', true]);
  });
});
