// Issue 35, a leftover of the review of its last stop: the path of shadow GraphQL strategies after an
// unexpected exception in the body read had not been checked (only a throwing cost walk was, in
// a-graphql-request-the-plugin-fails-to-charge-runs-nothing-and-is-counted.test.ts). Shadow strategies
// never refuse, so with only shadow GraphQL strategies such a request must be answered as the app
// answers it without the plugin, counted and logged; enforcing strategies answer it 503.
// - A read that throws before it reads anything (readOperations made to throw): the body is left to the
//   GraphQL route's parser, which reads it, and Apollo runs it. This already held; the test fails if
//   the plugin refused it.
// - A read whose stream yields strings (an earlier middleware called `req.setEncoding`): Buffer.concat
//   threw inside the stream's 'end' listener, an uncaught exception, which ends a Node process, and the
//   request was never answered. Now the read rejects at the first text chunk, the charge fails safe (charge-failures.ts), and
//   the route's parser answers what it answers without the plugin: koa-bodyparser's 500 "stream
//   encoding should not be set".
// The apps are Strapi's GraphQL route stack (koa-bodyparser, then Apollo: apollo-app.ts).
import type { Middleware } from 'koa';
import * as graphqlRequest from '../../../server/src/graphql/graphql-request';
import { apolloAppsForSuite, type ApolloApp } from './apollo-app';

const LOGIN = { query: 'mutation { login(identifier: "x") { jwt } }' };
const loginStrategy = (mode: 'enforce' | 'shadow') => ({ graphql: { mutation: ['login'] }, identifierSource: 'ip' as const, limiter: { algorithm: 'fixed-window' as const, tokens: 5, window: '1h' as const }, mode });
const setsEncoding: Middleware = (ctx, next) => {
  ctx.req.setEncoding('utf8');
  return next();
};

/** The log line without the stack frame it names, which depends on where the sources sit. */
const withoutFrame = (line: string): string => line.replace(/, at .*?\): such/, ', at <frame>): such');
const logLine = (error: string, consequence: string) => `[ratelimit] charging a request at the GraphQL endpoint failed (${error}, at <frame>): ${consequence}; each kind of error is logged once`;
const PASSED_ON = 'such a request takes 1 token from each GraphQL strategy (strategy[0], all in shadow mode) and is passed on';
const ANSWERED_503 = 'such a request is answered 503 without running and takes 1 token from each GraphQL strategy (strategy[0])';

/** What the login request is answered, what ran, the limiter's log and what each strategy counted. */
async function served(app: ApolloApp) {
  const answer = await app.request.post('/graphql').send(LOGIN);
  const usage = app.limiter && (await app.limiter.readUsage()).strategies.map((strategy) => strategy.callers.map(({ used }) => used));
  return { answer: [answer.status, answer.type === 'application/json' ? answer.body : answer.text], runs: app.runs.login ?? 0, log: app.warnings.map(withoutFrame), usage };
}

/** What the read fails with at the first chunk that arrives as text (review of this leftover: it read on to the end, counting characters, not bytes, against maxBodyBytes). */
const TEXT_CHUNK_FAILURE = 'TypeError: The request body arrives as text (an earlier middleware set its encoding), so its bytes cannot be read';

describe('a GraphQL body read that throws', () => {
  const open = apolloAppsForSuite();
  afterEach(() => jest.restoreAllMocks());

  it('before reading: with only shadow GraphQL strategies the request is served as without the plugin, counted and logged', async () => {
    const without = await served(await open(undefined));
    jest.spyOn(graphqlRequest, 'readOperations').mockRejectedValueOnce(new TypeError('the body read broke'));
    const shadowed = await served(await open({ strategy: [loginStrategy('shadow')] }));
    expect([without, shadowed]).toEqual([
      { answer: [200, { data: { login: { jwt: 'jwt' } } }], runs: 1, log: [], usage: undefined },
      { answer: [200, { data: { login: { jwt: 'jwt' } } }], runs: 1, log: [logLine('TypeError: the body read broke', PASSED_ON)], usage: [[1]] },
    ]);
  });

  it('while reading (the stream yields strings): it is counted, never an uncaught exception; shadow strategies leave the answer to the route', async () => {
    // Koa prints the route parser's 500 with its stack (its default app.onerror): the app's output, not the plugin's.
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const without = await served(await open(undefined, {}, [setsEncoding]));
    const shadowed = await served(await open({ strategy: [loginStrategy('shadow')] }, {}, [setsEncoding]));
    const enforced = await served(await open({ strategy: [loginStrategy('enforce')] }, {}, [setsEncoding]));
    const unavailable = { errors: [{ message: 'Rate limiting could not count this request (an error of the rate limiter, logged on the server), so it was not run', extensions: { code: 'SERVICE_UNAVAILABLE' } }] };
    expect([without, shadowed, enforced]).toEqual([
      { answer: [500, 'Internal Server Error'], runs: 0, log: [], usage: undefined },
      { answer: [500, 'Internal Server Error'], runs: 0, log: [logLine(TEXT_CHUNK_FAILURE, PASSED_ON)], usage: [[1]] },
      { answer: [503, unavailable], runs: 0, log: [logLine(TEXT_CHUNK_FAILURE, ANSWERED_503)], usage: [[1]] },
    ]);
  });
});
