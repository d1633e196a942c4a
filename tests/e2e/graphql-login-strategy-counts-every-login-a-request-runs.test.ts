// A GraphQL strategy on the `login` mutation counts every login a request would run, in a real
// Strapi with the GraphQL plugin and users-permissions (issue 35, "Tests and figures"): aliases and
// batches take one token per login and a request asking for more than the caller has left is
// refused whole, before any password is checked; `articles` queries are not its business. Without
// the strategy the same app ran 100 password checks for one request of 100 aliased correct logins,
// and 10 for a batch of 10 (graphql-answers-as-before-without-a-graphql-strategy's fixture, seen at
// boot). users-permissions' own login limiter is off here, so every refusal is this plugin's.
import { graphqlAppForSuite, loginMutation, READER } from '../support/graphql-app';

const LOGINS = 5;

describe('a GraphQL strategy of 5 logins per IP', () => {
  const suite = graphqlAppForSuite({
    // The app runs on the real clock: a 15m window's boundary fell between two requests of one test
    // in a CI run at 10:30:00 and admitted a request of 3 after 3. A sliding window does the same
    // (the earlier count weighs one less at once), so the suite waits for room in its window
    // (graphqlAppForSuite, window-room.ts), which an hour's window makes rarely needed.
    strategy: [{ graphql: { mutation: ['login'] }, identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: LOGINS, window: '1h' } }],
  });

  /** What a request did: its status, the first error's code, and the password checks it ran. */
  const attempt = async (ip: string, body: unknown) => {
    const checksBefore = suite.passwordChecks();
    const response = await suite.post(ip, body);
    const errors = Array.isArray(response.body) ? undefined : response.body.errors;
    return { response, status: response.status, code: errors?.[0]?.extensions?.code, checks: suite.passwordChecks() - checksBefore };
  };

  // More logins than the whole budget: no wait would admit it, so it is a 400 naming its count and the maximum, not a 429.
  it('refuses one request of 100 aliased correct logins whole, running no password check', async () => {
    const refused = await attempt('10.0.3.1', { query: loginMutation(100) });
    const { cost, limit } = refused.response.body.errors[0].extensions;
    expect([refused.status, refused.code, cost, limit, refused.checks, refused.response.body.data]).toEqual([400, 'QUERY_TOO_COSTLY', 100, LOGINS, 0, undefined]);
  });

  it('lets 5 separate logins through and refuses the 6th with a GraphQL error, RateLimit and Retry-After', async () => {
    const passed = [];
    for (let login = 0; login < LOGINS; login += 1) passed.push(await attempt('10.0.3.2', { query: loginMutation() }));
    const refused = await attempt('10.0.3.2', { query: loginMutation() });
    expect({
      passed: passed.map(({ status, checks, response }) => [status, checks, typeof response.body.data.login.jwt]),
      refused: [refused.status, refused.code, refused.checks, Number(refused.response.headers['retry-after']) > 0],
      ratelimit: refused.response.headers.ratelimit,
    }).toEqual({
      passed: Array.from({ length: LOGINS }, () => [200, 1, 'string']),
      refused: [429, 'RATE_LIMITED', 0, true],
      ratelimit: expect.stringMatching(/^limit=5, remaining=0, reset=\d+$/),
    });
  });

  it('refuses an array batch of 10 logins whole, running no password check', async () => {
    const refused = await attempt('10.0.3.3', Array.from({ length: 10 }, () => ({ query: loginMutation() })));
    expect([refused.status, refused.code, refused.response.body.errors[0].extensions.cost, refused.checks]).toEqual([400, 'QUERY_TOO_COSTLY', 10, 0]);
  });

  it('counts each login of a batch and of aliases: 3 pass, then a request of 3 more is refused whole with 429', async () => {
    const first = await attempt('10.0.3.4', [{ query: loginMutation(2) }, { query: loginMutation() }]);
    const second = await attempt('10.0.3.4', { query: loginMutation(3) });
    expect([first.status, first.checks, second.status, second.code, second.checks]).toEqual([200, 3, 429, 'RATE_LIMITED', 0]);
  });

  it('counts logins with a wrong password as logins', async () => {
    const statuses = [];
    for (let login = 0; login <= LOGINS; login += 1) statuses.push((await attempt('10.0.3.5', { query: loginMutation(1, `not-${READER.password}`) })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('leaves articles queries alone, also for a caller out of logins', async () => {
    await attempt('10.0.3.6', { query: loginMutation(LOGINS) });
    const queries = [];
    for (let query = 0; query < LOGINS + 2; query += 1) queries.push(await suite.post('10.0.3.6', { query: '{ articles { title } }' }));
    expect(queries.map((response) => [response.status, response.headers.ratelimit, response.body.errors])).toEqual(Array.from({ length: LOGINS + 2 }, () => [200, undefined, undefined]));
  });
});
