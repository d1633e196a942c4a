// A request costing more than a GraphQL strategy's whole budget is answered by the plugin itself
// (400 QUERY_TOO_COSTLY), and is still counted, as a request the plugin cannot read is: it takes 1
// token from the strategy it is too costly for and its charge from every other check, so a flood of
// such documents (each read and parsed) is limited like any other; when a check refuses it, the
// answer is the usual 429 and the others get their tokens back. Each such refusal is a blocked event
// of its strategy in analytics. Issue 35 review, item 2 (a): the plugin answered these before any
// store call, taking nothing from anyone, route strategies on /graphql included.
import { endpointStrategy, fixed, graphqlAppsForSuite, loginStrategy as login, logins } from './graphql-app';
import { analyticsUsage, statuses } from './support';

describe('a too-costly GraphQL request', () => {
  const { store, open } = graphqlAppsForSuite('too-costly');

  it('is counted by a route strategy on the endpoint: a flood of them is refused at its limit', async () => {
    const app = open({ strategy: [endpointStrategy(3), login(5)] });
    expect([await statuses(() => app.request.post('/graphql').send(logins(10)), 5), app.runs.login]).toEqual([[400, 400, 400, 429, 429], undefined]);
  });

  it('takes 1 token from the strategy it is too costly for', async () => {
    const app = open({ strategy: [login(3)] });
    const seen: number[] = [];
    for (const count of [10, 10, 1, 1]) seen.push((await app.request.post('/graphql').send(logins(count))).status);
    expect([seen, app.runs.login]).toEqual([[400, 400, 200, 429], 1]);
  });

  it('takes its charge from the other GraphQL strategies', async () => {
    const app = open({ strategy: [login(2), { graphql: { mutation: ['*'] }, identifierSource: 'ip', limiter: fixed(25) }] });
    const answer = await app.request.post('/graphql').send(logins(10));
    const usage = (await app.limiter.readUsage()).strategies.map((strategy) => strategy.callers.map(({ used, remaining }) => ({ used, remaining })));
    expect([answer.status, answer.body, usage]).toEqual([
      400,
      { errors: [{ message: 'This request costs 10, more than the 2 strategy[0] allows a caller per window: ask for fewer fields, aliases or items', extensions: { code: 'QUERY_TOO_COSTLY', cost: 10, limit: 2 } }] },
      [[{ used: 1, remaining: 1 }], [{ used: 10, remaining: 15 }]],
    ]);
  });

  it('is answered 429 when another check refuses it, and gives back the token it took', async () => {
    const app = open({ strategy: [endpointStrategy(1), login(5)] });
    const first = await app.request.post('/graphql').send(logins(1));
    const refused = await app.request.post('/graphql').send(logins(10));
    const [, loginUsage] = (await app.limiter.readUsage()).strategies;
    expect([first.status, refused.status, refused.body.errors[0].extensions.code, loginUsage.callers.map(({ used, remaining }) => ({ used, remaining }))]).toEqual([200, 429, 'RATE_LIMITED', [{ used: 1, remaining: 4 }]]);
  });

  it('is called too costly in its debug line, with what it costs and what is left', async () => {
    const app = open({ strategy: [{ ...login(3), debug: true }] });
    await app.request.post('/graphql').send(logins(10));
    expect(app.info.map((line) => line.replace(/reset in \d+s/, 'reset in Ns'))).toEqual([
      '[ratelimit] POST /graphql -> strategy ALL /graphql#mutation(login) 127.0.0.1 costs 10: too costly (more than the limit 3), 1 taken, remaining 2/3, reset in Ns',
    ]);
  });

  it('is a blocked event of the strategy it is too costly for in analytics', async () => {
    const app = open({ analytics: true, strategy: [login(5)] });
    for (const count of [10, 1, 10]) await app.request.post('/graphql').send(logins(count));
    expect(await analyticsUsage(store.redis, app.prefix, 3)).toEqual({ 'ALL:/graphql#mutation(login):127.0.0.1:fixed-window.1h': { success: 1, blocked: 2 } });
  });
});
