// Issue 35: GraphQL strategies keep what every strategy has, with requests that take several tokens:
// shadow mode counts and never refuses, the deny list's 403 and failureMode closed's 503 are GraphQL
// errors at the endpoint, failureMode local limits in memory by the same count, and a tier's budget
// decides what is too costly.
import type { CallerVerifier } from '../../../server/src';
import { graphqlAppsForSuite, loginStrategy as login, logins } from './graphql-app';

describe('GraphQL strategies with the rest of the plugin', () => {
  const { open: graphqlApp } = graphqlAppsForSuite('graphql-modes');

  it('in shadow mode count by the request and log would-be refusals, refusing nothing', async () => {
    const app = graphqlApp({ strategy: [{ ...login(3), mode: 'shadow' }] });
    const statuses: number[] = [];
    for (const count of [2, 2, 5]) statuses.push((await app.request.post('/graphql').send(logins(count))).status);
    // The second request would be refused (2 + 2 > 3), the third costs more than the whole budget: one line per caller and window.
    expect([statuses, app.runs.login, app.info.filter((line) => line.includes('shadow: would block')).length]).toEqual([[200, 200, 200], 9, 1]);
  });

  it('answer a denied caller with a GraphQL 403', async () => {
    const app = graphqlApp({ strategy: [login(3)] });
    await app.limiter.denyCaller({ ip: '127.0.0.1' }, 'test');
    const denied = await app.request.post('/graphql').send(logins(1));
    expect([denied.status, denied.body, app.runs.login]).toEqual([403, { errors: [{ message: 'This caller is denied access', extensions: { code: 'FORBIDDEN' } }] }, undefined]);
  });

  it('answer a GraphQL 503 when the store is down and failureMode is closed, and limit by the count in memory when it is local', async () => {
    const down = { url: 'http://127.0.0.1:9', token: 't', timeout: 200 };
    const closed = graphqlApp({ ...down, failureMode: 'closed', strategy: [login(3)] });
    const refused = await closed.request.post('/graphql').send(logins(1));
    const local = graphqlApp({ ...down, failureMode: 'local', strategy: [login(3)] });
    const statuses: number[] = [];
    for (const count of [2, 2, 1]) statuses.push((await local.request.post('/graphql').send(logins(count))).status);
    expect([refused.status, refused.body, statuses, local.runs.login]).toEqual([
      503,
      { errors: [{ message: 'Rate limiting is unavailable, please retry later', extensions: { code: 'SERVICE_UNAVAILABLE' } }] },
      [200, 429, 200],
      3,
    ]);
  });

  it('show their callers in the usage view and follow a live limit', async () => {
    const app = graphqlApp({ strategy: [login(3)] });
    const before = (await app.request.post('/graphql').send(logins(5))).status;
    await app.limiter.setLiveLimit(0, 10, 'test');
    const after = (await app.request.post('/graphql').send(logins(5))).status;
    const [usage] = (await app.limiter.readUsage()).strategies;
    expect([before, after, usage.methods, usage.path, usage.liveTokens, usage.callers.map(({ identifier, method, used, remaining, limit }) => ({ identifier, method, used, remaining, limit }))]).toEqual([
      400,
      200,
      ['ALL'],
      '/graphql#mutation(login)',
      10,
      // The too-costly request took 1 (a-too-costly-graphql-request-still-takes-a-token.test.ts).
      [{ identifier: '127.0.0.1', method: 'ALL', used: 6, remaining: 4, limit: 10 }],
    ]);
  });

  it("judge what is too costly by the caller's tier", async () => {
    const verifyCaller: CallerVerifier = async (ctx) => (ctx.get('Authorization') ? { id: 'user:1', kind: 'user', type: 'authenticated' } : undefined);
    const app = graphqlApp({ strategy: [{ ...login(2), identifierSource: 'user', tiers: { roles: { authenticated: { tokens: 10 } } } }] }, { verifyCaller });
    const anonymous = await app.request.post('/graphql').send(logins(5));
    const user = await app.request.post('/graphql').set('Authorization', 'Bearer x').send(logins(5));
    expect([anonymous.status, anonymous.body.errors?.[0]?.extensions, user.status]).toEqual([400, { code: 'QUERY_TOO_COSTLY', cost: 5, limit: 2 }, 200]);
  });
});
