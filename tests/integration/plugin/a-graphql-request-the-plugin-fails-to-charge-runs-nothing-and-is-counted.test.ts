// Issue 35, hardening after the review, gap 1 (defense in depth): an unexpected exception while a
// request at the GraphQL endpoint is charged (here the cost walk, QueryCost.field, made to throw) was
// answered 500 by whatever sat around the plugin (Koa's "Internal Server Error", a stack trace in
// development) and took no token: a document that hits such a bug could be sent without limit. Now
// the request fails safe: nothing of it runs, it takes 1 token from every GraphQL strategy (as a
// request the plugin cannot read does), it is answered 503 in GraphQL's shape, and the error is
// logged once per kind (its name and where it was thrown), not once per request. With only shadow
// GraphQL strategies, which never refuse, it is counted and passed on.
import { QueryCost } from '../../../server/src/graphql/query-cost';
import { fixed, graphqlAppsForSuite } from './graphql-app';

const QUERY = { query: '{ articles(pagination: { pageSize: 10 }) { title } }' };
const costOfArticles = (mode: 'enforce' | 'shadow' = 'enforce') => ({ graphql: { query: ['articles'], charge: 'cost' as const }, identifierSource: 'ip' as const, limiter: fixed(100), mode });

/** The log line without the stack frame it names, which depends on where this file sits. */
const withoutFrame = (line: string): string => line.replace(/, at .*?\): such/, ', at <frame>): such');

describe('a GraphQL request whose charge throws', () => {
  const { open } = graphqlAppsForSuite('charge-fails');
  afterEach(() => jest.restoreAllMocks());

  it('runs nothing, is answered a GraphQL 503 and takes a token, with one log line per kind of error', async () => {
    const app = open({ strategy: [costOfArticles()] });
    const walk = jest.spyOn(QueryCost.prototype, 'field');
    const seen: unknown[] = [];
    const send = async () => {
      const answer = await app.request.post('/graphql').send(QUERY);
      seen.push([answer.status, answer.body, /remaining=(\d+)/.exec(String(answer.headers.ratelimit))?.[1]]);
    };
    walk.mockImplementation(() => {
      throw new TypeError('the cost walk broke');
    });
    await send();
    await send();
    walk.mockImplementation(() => {
      throw new RangeError('the cost walk overflowed');
    });
    await send();
    walk.mockRestore();
    // The next request is costed and runs: 100 - 3 failed requests - its cost of 10.
    await send();
    const unavailable = {
      errors: [{ message: 'Rate limiting could not count this request (an error of the rate limiter, logged on the server), so it was not run', extensions: { code: 'SERVICE_UNAVAILABLE' } }],
    };
    const explained = (error: string) =>
      `[ratelimit] charging a request at the GraphQL endpoint failed (${error}, at <frame>): such a request is answered 503 without running and takes 1 token from each GraphQL strategy (strategy[0]); each kind of error is logged once`;
    expect([seen, app.runs.articles, app.warnings.map(withoutFrame)]).toEqual([
      [
        [503, unavailable, '99'],
        [503, unavailable, '98'],
        [503, unavailable, '97'],
        [200, { data: { articles: [{ title: 't' }] } }, '87'],
      ],
      1,
      [explained('TypeError: the cost walk broke'), explained('RangeError: the cost walk overflowed')],
    ]);
  });

  it('is counted and passed on when every GraphQL strategy is in shadow mode', async () => {
    const app = open({ strategy: [costOfArticles('shadow')] });
    jest.spyOn(QueryCost.prototype, 'field').mockImplementation(() => {
      throw new TypeError('the cost walk broke');
    });
    const answer = await app.request.post('/graphql').send(QUERY);
    const usage = (await app.limiter.readUsage()).strategies.map((strategy) => strategy.callers.map(({ used }) => used));
    expect([answer.status, answer.body, app.runs.articles, usage, app.warnings.length]).toEqual([200, { data: { articles: [{ title: 't' }] } }, 1, [[1]], 1]);
  });
});
