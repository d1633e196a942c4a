// A GraphQL strategy on the `articles` query counts it at the GraphQL endpoint whether the
// operation comes as GET ?query= (with the header Apollo's CSRF prevention asks of a GET) or as a
// POST body, aliases included, under one key (issue 35, "a query strategy counts GET and POST
// alike"); the root fields it does not name are not counted.
import { Redis } from '@upstash/redis';
import { graphqlAppForSuite } from '../support/graphql-app';

describe('a GraphQL strategy of 4 articles queries per IP', () => {
  const suite = graphqlAppForSuite({
    strategy: [{ graphql: { query: ['articles'] }, identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 4, window: '1h' } }],
  });

  it('counts GET and POST on one budget, and answers the 5th either way with 429', async () => {
    const sent = [
      await suite.get('10.0.4.1', '{ articles { title } }'),
      await suite.post('10.0.4.1', { query: '{ articles { title } }' }),
      await suite.get('10.0.4.1', '{ articles { title } }'),
      await suite.post('10.0.4.1', { query: '{ articles { title } }' }),
    ];
    const refusedGet = await suite.get('10.0.4.1', '{ articles { title } }');
    const refusedPost = await suite.post('10.0.4.1', { query: '{ articles { title } }' });
    expect([...sent, refusedGet, refusedPost].map((response) => [response.status, response.headers.ratelimit?.replace(/reset=\d+/, 'reset')])).toEqual([
      [200, 'limit=4, remaining=3, reset'],
      [200, 'limit=4, remaining=2, reset'],
      [200, 'limit=4, remaining=1, reset'],
      [200, 'limit=4, remaining=0, reset'],
      [429, 'limit=4, remaining=0, reset'],
      [429, 'limit=4, remaining=0, reset'],
    ]);
  });

  it('counts each alias of a GET as one query', async () => {
    const twoAliases = await suite.get('10.0.4.2', '{ first: articles { title } second: articles { title } }');
    const threeAliases = await suite.get('10.0.4.2', '{ a: articles { title } b: articles { title } c: articles { title } }');
    expect([twoAliases.status, threeAliases.status, threeAliases.body.errors?.[0]?.extensions?.code]).toEqual([200, 429, 'RATE_LIMITED']);
  });

  it('does not count root fields it does not name', async () => {
    const responses = [];
    for (let query = 0; query < 6; query += 1) responses.push(await suite.get('10.0.4.3', '{ comments { body } articles_connection { pageInfo { total } } }'));
    expect(responses.map((response) => [response.status, response.headers.ratelimit])).toEqual(Array.from({ length: 6 }, () => [200, undefined]));
  });

  it('keeps its counter under a key naming the endpoint and its fields, apart from any route', async () => {
    await suite.post('10.0.4.4', { query: '{ articles { title } }' });
    const keys = await new Redis({ url: suite.kv.url, token: suite.kv.token }).keys('@cms:*10.0.4.4*');
    expect(keys.map((key) => key.split(':').slice(0, 4).join(':'))).toEqual(['@cms:ALL:/graphql#query(articles):10.0.4.4']);
  });
});
