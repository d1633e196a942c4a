// GraphQL strategies beside REST strategies (issue 35, "REST strategies unchanged"): a REST
// strategy counts its route and refuses with Strapi's own error as before, whatever GraphQL logins
// the caller ran; the GraphQL login strategy counts neither the REST login route nor REST reads;
// and a route strategy on the endpoint still counts one token per POST beside it.
import { graphqlAppForSuite, loginMutation, READER } from '../support/graphql-app';

describe('a GraphQL login strategy beside REST strategies', () => {
  const suite = graphqlAppForSuite({
    strategy: [
      { graphql: { mutation: ['login'] }, identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 2, window: '1h' } },
      { methods: ['GET'], path: '/api/articles', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 2, window: '1h' } },
      { methods: ['POST'], path: '/graphql', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 4, window: '1h' } },
    ],
  });
  const restLogin = (ip: string) => suite.app.request.post('/api/auth/local').set('X-Forwarded-For', ip).send({ identifier: READER.identifier, password: READER.password });
  const restArticles = (ip: string) => suite.app.request.get('/api/articles').set('X-Forwarded-For', ip);

  it('counts REST reads on their own strategy and refuses the 3rd with Strapi\'s RateLimitError', async () => {
    await suite.post('10.0.6.1', { query: loginMutation(2) });
    const responses = [await restArticles('10.0.6.1'), await restArticles('10.0.6.1'), await restArticles('10.0.6.1')];
    expect(responses.map((response) => [response.status, response.body.error?.name])).toEqual([
      [200, undefined],
      [200, undefined],
      [429, 'RateLimitError'],
    ]);
  });

  it('does not count the REST login route on the GraphQL login strategy', async () => {
    const rest = [await restLogin('10.0.6.2'), await restLogin('10.0.6.2'), await restLogin('10.0.6.2')];
    const graphql = await suite.post('10.0.6.2', { query: loginMutation(2) });
    expect([...rest.map((response) => response.status), graphql.status]).toEqual([200, 200, 200, 200]);
  });

  it('keeps counting POSTs on the route strategy beside the GraphQL one', async () => {
    const statuses = [];
    for (let post = 0; post < 5; post += 1) statuses.push((await suite.post('10.0.6.3', { query: '{ articles { title } }' })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });
});
