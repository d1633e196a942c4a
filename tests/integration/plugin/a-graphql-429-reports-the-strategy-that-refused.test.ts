// A 429 at the GraphQL endpoint reports the strategy that refused the request: its limit, its
// remaining as its limiter answered it, and the request's cost on it, in the RateLimit header and in
// the error's extensions. A refused check of more than 1 may leave the caller tokens for a smaller
// request: the memory limiter of failureMode 'local' answers so, and so do the store's scripts for
// such checks (shared/charge-scripts.ts). Issue 35 review, item 4: the 429 reported whichever
// enforcing outcome had the fewest remaining, an admitting strategy's when it came after the refusal.
import { fixed, graphqlAppsForSuite, loginStrategy } from './graphql-app';

/** `logins` aliased logins and `registers` aliased registrations in one mutation. */
const mutation = (logins: number, registers: number) => ({
  query: `mutation { ${[...Array.from({ length: logins }, (_, index) => `l${index}: login(identifier: "x") { jwt }`), ...Array.from({ length: registers }, (_, index) => `r${index}: register(identifier: "x") { jwt }`)].join(' ')} }`,
});

describe('a 429 at the GraphQL endpoint', () => {
  const { open } = graphqlAppsForSuite('refusing');

  it('reports the strategy that refused it, not a tighter one that admitted it', async () => {
    const app = open({
      url: 'http://127.0.0.1:9',
      token: 't',
      timeout: 200,
      failureMode: 'local',
      strategy: [loginStrategy(5), { graphql: { mutation: ['register'] }, identifierSource: 'ip', limiter: fixed(3) }],
    });
    // Logins 3 of 5, registrations 2 of 3; then 3 more logins are refused (2 left) while 1 registration is admitted (0 left).
    const first = await app.request.post('/graphql').send(mutation(3, 2));
    const refused = await app.request.post('/graphql').send(mutation(3, 1));
    const { code, cost, limit, remaining } = refused.body.errors[0].extensions;
    expect([first.status, refused.status, refused.headers.ratelimit?.replace(/reset=\d+/, 'reset=N'), { code, cost, limit, remaining }]).toEqual([
      200,
      429,
      'limit=5, remaining=2, reset=N',
      { code: 'RATE_LIMITED', cost: 3, limit: 5, remaining: 2 },
    ]);
  });
});
