// Issue 35, a leftover of the review of its last stop (keys hold a canonical route, issue 34 finding
// 6, but not yet for the GraphQL endpoint): two instances against one store whose GraphQL endpoint is
// configured with different spellings of one path (letter case, a trailing slash) count their GraphQL
// strategies on the same keys, because those keys name the endpoint's canonical form
// (server/src/config/keys.ts `keyRoute`). With the endpoint as written, each pair admitted 10 of 16
// logins against a shared limit of 5, and a live limit of 1 set on one instance did not apply on the
// other (4 of 4 admitted there).
import { fakeDateOnly } from '../../support/fake-date';
import { schema } from '../../unit/graphql/support';
import { fixed, graphqlAppsForSuite, type GraphqlApp } from './graphql-app';

const { open } = graphqlAppsForSuite('endpoint-spelling');
const LOGIN = { query: 'mutation { login(identifier: "x") { jwt } }' };

const instance = (prefix: string, endpoint: string): GraphqlApp =>
  open({ prefix, strategy: [{ graphql: { mutation: ['login'] }, identifierSource: 'header.x-caller', limiter: fixed(5) }] }, { graphql: { endpoint, schema: () => schema } });

describe('instances whose GraphQL endpoints differ only in spelling share one budget and live limit', () => {
  it.each([
    ['letter case', '/graphql', '/GraphQL'],
    ['a trailing slash', '/graphql', '/graphql/'],
  ])('%s: %j on one instance and %j on the other admit 5 of 16 logins together, and a live limit set on one applies on the other', async (_change, endpointA, endpointB) => {
    fakeDateOnly(1_800_000_000_000);
    const prefix = `endpoint-spelling-${endpointB}`;
    const [a, b] = [instance(prefix, endpointA), instance(prefix, endpointB)];
    const interleaved: number[] = [];
    for (let i = 0; i < 8; i++) for (const app of [a, b]) interleaved.push((await app.request.post('/graphql').set('x-caller', 'shared').send(LOGIN)).status);

    await a.limiter.setLiveLimit(0, 1, 'ops@example.com');
    const freshOnB: number[] = [];
    for (let i = 0; i < 4; i++) freshOnB.push((await b.request.post('/graphql').set('x-caller', 'fresh').send(LOGIN)).status);

    expect([interleaved.filter((status) => status === 200).length, freshOnB]).toEqual([5, [200, 429, 429, 429]]);
  });
});
