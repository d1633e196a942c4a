// Hostile requests at the GraphQL endpoint of a real Strapi with a GraphQL strategy (issue 35,
// "Hostile inputs"): a document nested 3,000 deep (which overflows graphql-js's parser), 100,000
// aliases, 400 fragments spread side by side (which cost Apollo's validation 161 ms of CPU before
// graphql.maxFragmentSpreads), a body that is not JSON, a body over the size bound and an
// operationName pointing nowhere each get a clear GraphQL error with a 4xx status, run no password
// check, and leave the app answering the next request.
import { graphqlAppForSuite, loginMutation } from '../support/graphql-app';

describe('hostile requests at a Strapi GraphQL endpoint with a login strategy', () => {
  const suite = graphqlAppForSuite({
    strategy: [{ graphql: { mutation: ['login'] }, identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 5, window: '1h' } }],
  });

  /** Status, first error code, and password checks of a raw POST body. */
  const sendRaw = async (ip: string, body: string) => {
    const checksBefore = suite.passwordChecks();
    const response = await suite.app.request.post('/graphql').set('X-Forwarded-For', ip).set('Content-Type', 'application/json').send(body);
    return [response.status, response.body?.errors?.[0]?.extensions?.code, suite.passwordChecks() - checksBefore];
  };

  it('refuses a document nested 3,000 deep', async () => {
    expect(await sendRaw('10.0.7.1', JSON.stringify({ query: `mutation { ${'a { '.repeat(3000)}b${' }'.repeat(3000)} }` }))).toEqual([400, 'GRAPHQL_VALIDATION_FAILED', 0]);
  });

  it('refuses 100,000 aliased logins by their size, and 1,000 by their aliases', async () => {
    const huge = await sendRaw('10.0.7.2', JSON.stringify({ query: loginMutation(100_000) }));
    const many = await sendRaw('10.0.7.2', JSON.stringify({ query: loginMutation(1_000) }));
    expect([huge, many]).toEqual([
      [413, 'PAYLOAD_TOO_LARGE', 0],
      [400, 'GRAPHQL_VALIDATION_FAILED', 0],
    ]);
  });

  it("refuses 400 fragments spread side by side with the plugin's own answer, before Apollo validates them", async () => {
    const fragments = Array.from({ length: 400 }, (_, index) => index);
    const query = `query { ${fragments.map((index) => `...F${index}`).join(' ')} } ${fragments.map((index) => `fragment F${index} on Query { me { username } }`).join(' ')}`;
    const response = await suite.app.request.post('/graphql').set('X-Forwarded-For', '10.0.7.7').send({ query });
    expect([response.status, response.body]).toEqual([
      400,
      { errors: [{ message: 'This document has 400 fragment spreads, more than the 50 allowed (graphql.maxFragmentSpreads)', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }] },
    ]);
  });

  it('refuses a body that is not JSON', async () => {
    expect(await sendRaw('10.0.7.3', '{"query": "mutation { login')).toEqual([400, 'BAD_REQUEST', 0]);
  });

  it('refuses a body over the size bound', async () => {
    expect(await sendRaw('10.0.7.4', JSON.stringify({ query: `{ __typename }`, padding: 'x'.repeat(1_100_000) }))).toEqual([413, 'PAYLOAD_TOO_LARGE', 0]);
  });

  it('answers an operationName pointing nowhere with GraphQL\'s own error, running no login', async () => {
    expect(await sendRaw('10.0.7.5', JSON.stringify({ query: loginMutation(2), operationName: 'Nowhere' }))).toEqual([400, 'OPERATION_RESOLUTION_FAILURE', 0]);
  });

  it('still answers a login afterwards', async () => {
    expect(await sendRaw('10.0.7.6', JSON.stringify({ query: loginMutation() }))).toEqual([200, undefined, 1]);
  });
});
