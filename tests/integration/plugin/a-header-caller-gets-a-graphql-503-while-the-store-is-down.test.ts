// Issue 35 review, finding 3: with failureMode 'closed' and the store down, a GraphQL strategy that
// identifies its caller by a header (hashed with the deployment's key, which the store holds) was
// answered 503 in Strapi's REST error shape, while one by IP got the GraphQL error GraphQL clients
// read: the wait for the key refused outside the endpoint's answers.
import { fixed, graphqlAppsForSuite } from './graphql-app';

describe('a GraphQL request while the store is down and failureMode is closed', () => {
  const { open: graphqlApp } = graphqlAppsForSuite('graphql-header-503');

  it('is answered a GraphQL 503 when its strategy identifies the caller by a header, as by IP', async () => {
    const down = { url: 'http://127.0.0.1:9', token: 't', timeout: 200, failureMode: 'closed' as const };
    const answers = [];
    for (const identifierSource of ['header.x-api-key', 'ip'] as const) {
      const app = graphqlApp({ ...down, strategy: [{ graphql: { query: ['articles'] }, identifierSource, limiter: fixed(5) }] });
      const answer = await app.request.post('/graphql').set('x-api-key', 'k1').send({ query: '{ articles { title } }' });
      answers.push([answer.status, answer.body, app.runs.articles]);
    }
    const unavailable = { errors: [{ message: 'Rate limiting is unavailable, please retry later', extensions: { code: 'SERVICE_UNAVAILABLE' } }] };
    expect(answers).toEqual([
      [503, unavailable, undefined],
      [503, unavailable, undefined],
    ]);
  });
});
