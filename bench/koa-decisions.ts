// A limiter's decisions through Koa's middleware stack, on Koa contexts built from Node's own request
// and response objects (no HTTP server: no socket, no load generator, whose costs would bury the
// limiter's), `perTurn` requests at a time and then the next turn of the event loop (setImmediate),
// so with one per turn every request is alone in its turn, as at the moderate load of issue 36.
// Requests come from 10 callers in turn; GraphQL rows (issue 35) send the read as a GraphQL query.
// Shared by the instruction counts of the app
// (decision-instructions-process.ts) and of the key-value server (kv-request-client.ts).
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import path from 'node:path';
import Koa, { type Middleware } from 'koa';
import compose from 'koa-compose';

/** The header that names the caller; the plugin's strategy keys by it. */
export const CALLER_HEADER = 'x-caller';
const HIGH = 1_000_000_000;

/** Runs `count` decisions, `perTurn` per turn; rejects on an answer other than 200. */
export type Decisions = (count: number) => Promise<void>;

/** A GraphQL row's requests: unlimited, or limited by the query's root field (`count`) or by its cost. */
export type GraphqlRow = 'unlimited' | 'count' | 'cost';

/** bench/scenarios.ts's GRAPHQL_PING: the demo's ping as a GraphQL query, and Apollo's answer to it. */
const GRAPHQL_QUERY = Buffer.from(JSON.stringify({ query: '{ ping { ok } }' }));
const GRAPHQL_ANSWER = '{"data":{"ping":{"ok":true}}}';
// @strapi/plugin-graphql's body parser (a dependency of it, without types of its own).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const bodyParser = require('koa-bodyparser') as () => Middleware;

const restRead: Middleware = (ctx) => void (ctx.body = { ok: true });
/** Stands for Apollo: checks that the query reached it parsed, and answers as Apollo's Koa integration does (a JSON text). */
const graphqlRead: Middleware = (ctx) => {
  if ((ctx.request as { body?: { query?: unknown } }).body?.query === undefined) throw new Error('the GraphQL query did not reach the handler');
  ctx.type = 'application/json';
  ctx.body = GRAPHQL_ANSWER;
};

/** A GET of the read, or (`graphql`) a POST of it as a GraphQL query whose body has arrived whole. */
function requestOf(index: number, graphql: boolean): IncomingMessage {
  const request = new IncomingMessage(new Socket());
  request.headers = { host: 'localhost', [CALLER_HEADER]: `caller-${index % 10}` };
  if (!graphql) {
    request.method = 'GET';
    request.url = '/r';
    return request;
  }
  request.method = 'POST';
  request.url = '/graphql';
  request.headers['content-type'] = 'application/json';
  request.headers['content-length'] = String(GRAPHQL_QUERY.length);
  request.push(GRAPHQL_QUERY);
  request.push(null);
  // As Node's HTTP parser marks a request whose body arrived whole (else its end destroys the socket as aborted).
  request.complete = true;
  return request;
}

/**
 * `graphql`: the read as a GraphQL query (issue 35), through koa-bodyparser (as @strapi/plugin-graphql
 * reads it) to a handler standing for Apollo, whose own work is the same with or without a limiter.
 */
export function koaDecisions(limiter: Middleware | undefined, perTurn: number, graphql = false): Decisions {
  const app = new Koa();
  const handlers = graphql ? [bodyParser(), graphqlRead] : [restRead];
  const stack = compose([...(limiter ? [limiter] : []), ...handlers]);
  const decide = (index: number): Promise<void> => {
    const request = requestOf(index, graphql);
    const ctx = app.createContext(request, new ServerResponse(request));
    return stack(ctx).then(() => {
      if (ctx.status !== 200) throw new Error(`decision ${index}: ${ctx.status} ${JSON.stringify(ctx.body)}`);
    });
  };
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
  return async (count) => {
    for (let index = 0; index < count; index += perTurn) {
      const turn: Array<Promise<void>> = [];
      for (let one = 0; one < perTurn; one++) turn.push(decide(index + one));
      await Promise.all(turn);
      await nextTurn();
    }
  };
}

type Strategy = NonNullable<import('../server/src').RateLimitConfigInput['strategy']>[number];

/** The strategy of a row: the REST route, or the GraphQL query's root field, counted or costed. */
function strategyOf(graphql: GraphqlRow | undefined): Strategy {
  const limiter = { algorithm: 'sliding-window', tokens: HIGH, window: '1m' } as const;
  const identifierSource = `header.${CALLER_HEADER}` as const;
  if (graphql === undefined || graphql === 'unlimited') return { methods: ['GET'], path: '/r', identifierSource, limiter };
  return { graphql: { query: ['ping'], ...(graphql === 'cost' ? { charge: 'cost' as const } : {}) }, identifierSource, limiter };
}

/**
 * The plugin's timeout under callgrind, the longest its config allows: the counted process runs some
 * 50 times slower (more on a loaded machine), and a turn in which V8 compiles a large function can
 * take longer than the default second, after which the decision fails open and counts the failure's path.
 */
export const PATIENT_TIMEOUT_MS = 60_000;

/** The plugin's warnings (a store that failed, a decision let through unlimited), where the caller wants them. */
export type Warn = (line: string) => void;

/**
 * The plugin of the build in `pluginRoot` (a checkout whose `dist/` holds it) on the store at `url`
 * (none: the embedded store), with one sliding window keyed by CALLER_HEADER that never refuses;
 * `timeout`: the plugin's, for a store slowed down by callgrind.
 */
export function pluginMiddleware(
  pluginRoot: string,
  store: { readonly url?: string; readonly token?: string; readonly denyList?: false; readonly timeout?: number; readonly graphql?: GraphqlRow },
  warn: Warn = () => undefined,
): Middleware {
  const plugin = require(path.join(pluginRoot, 'dist/server/src')) as typeof import('../server/src');
  const logger = { info: () => undefined, warn, error: warn, debug: () => undefined };
  return plugin.createRateLimitMiddleware(
    {
      ...(store.url === undefined ? {} : { url: store.url, token: store.token }),
      ...(store.denyList === false ? { denyList: false } : {}),
      ...(store.timeout === undefined ? {} : { timeout: store.timeout }),
      strategy: [strategyOf(store.graphql)],
    },
    { logger, environment: 'development' },
  );
}
