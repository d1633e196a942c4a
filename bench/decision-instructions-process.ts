// Child process of npm run bench:instructions (instructions.ts): a limiter's decisions through Koa's
// middleware stack, on Koa contexts built from Node's own request and response objects (no HTTP: no
// socket, no load generator, whose costs would bury the limiter's), `perTurn` requests at a time and
// then the next turn of the event loop (setImmediate), so with one per turn every request is alone in
// its turn, as at the moderate load of issue 36. One process holds a round's limiters (they share
// its start, several seconds under callgrind): it warms each up (uninstrumented, until V8 has
// compiled what they run), then runs `decisions` requests from 10 callers through each in turn, each
// after a full garbage collection (so one row's garbage is not collected in another's part), marking
// before and after each (instruction-marks.ts: the parts alternate, a collection then a row), and exits. A plugin comes from its `pluginRoot`'s build, so two builds run side by side.
// GraphQL rows (issue 35) send the same read as a GraphQL query through koa-bodyparser to a handler
// standing for Apollo, whose own work is the same with or without the limiter and is left out.
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import path from 'node:path';
import Redis from 'ioredis';
import Koa, { type Middleware } from 'koa';
import compose from 'koa-compose';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { instrumentFromHere, markInstructions } from './instruction-marks';

/** One limiter of a round. */
export interface DecisionLimiter {
  /** bare: no limiter; peer: rate-limiter-flexible on ioredis at `url`; plugin: the plugin at `url` (none: the embedded store). */
  readonly limiter: 'bare' | 'peer' | 'plugin';
  readonly url?: string;
  readonly token?: string;
  readonly denyList?: false;
  /**
   * The row's requests: a REST read (GET /r, the default), or the same read as a GraphQL query
   * (POST /graphql, its body read by koa-bodyparser, as @strapi/plugin-graphql reads it), which a
   * plugin row limits by its root field (`count`) or by its cost (`cost`).
   */
  readonly graphql?: 'unlimited' | 'count' | 'cost';
  /** A checkout whose `dist/` holds the plugin's build. */
  readonly pluginRoot: string;
}

/** What one process measures (sent as JSON on the command line). */
export interface DecisionRound {
  readonly limiters: readonly DecisionLimiter[];
  readonly warmUp: number;
  readonly decisions: number;
  readonly perTurn: number;
}

type Strategy = NonNullable<import('../server/src').RateLimitConfigInput['strategy']>[number];

const HIGH = 1_000_000_000;
const CALLER_HEADER = 'x-caller';
/** bench/scenarios.ts's GRAPHQL_PING: the demo's ping as a GraphQL query, and Apollo's answer to it. */
const GRAPHQL_QUERY = Buffer.from(JSON.stringify({ query: '{ ping { ok } }' }));
const GRAPHQL_ANSWER = '{"data":{"ping":{"ok":true}}}';
// @strapi/plugin-graphql's body parser (a dependency of it, without types of its own).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const bodyParser = require('koa-bodyparser') as () => Middleware;

/** The plugin's strategy for a row: the REST route, or the GraphQL query's root field, counted or costed. */
function pluginStrategy(run: DecisionLimiter): Strategy {
  const limiter = { algorithm: 'sliding-window', tokens: HIGH, window: '1m' } as const;
  const identifierSource = `header.${CALLER_HEADER}` as const;
  if (run.graphql === undefined) return { methods: ['GET'], path: '/r', identifierSource, limiter };
  return { graphql: { query: ['ping'], ...(run.graphql === 'cost' ? { charge: 'cost' as const } : {}) }, identifierSource, limiter };
}

function limiterOf(run: DecisionLimiter): Middleware | undefined {
  if (run.limiter === 'bare') return undefined;
  if (run.limiter === 'peer') {
    const limiter = new RateLimiterRedis({ storeClient: new Redis(run.url!), points: HIGH, duration: 60, keyPrefix: 'instructions-peer' });
    // As its README wires it into Koa (and as bench/koa-app-process.ts runs it).
    return async (ctx, next) => {
      try {
        await limiter.consume(ctx.get(CALLER_HEADER) || ctx.ip);
      } catch (rejection) {
        if (rejection instanceof Error) throw rejection;
        ctx.status = 429;
        return;
      }
      return next();
    };
  }
  const plugin = require(path.join(run.pluginRoot, 'dist/server/src')) as typeof import('../server/src');
  const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
  return plugin.createRateLimitMiddleware(
    {
      ...(run.url === undefined ? {} : { url: run.url, token: run.token }),
      ...(run.denyList === false ? { denyList: false } : {}),
      strategy: [pluginStrategy(run)],
    },
    { logger: quiet, environment: 'development' },
  );
}

const restRead: Middleware = (ctx) => void (ctx.body = { ok: true });
/** Stands for Apollo: checks that the query reached it parsed, and answers as Apollo's Koa integration does (a JSON text). */
const graphqlRead: Middleware = (ctx) => {
  if ((ctx.request as { body?: { query?: unknown } }).body?.query === undefined) throw new Error('the GraphQL query did not reach the handler');
  ctx.type = 'application/json';
  ctx.body = GRAPHQL_ANSWER;
};

async function main(): Promise<void> {
  const round = JSON.parse(process.argv[2]) as DecisionRound;
  const app = new Koa();
  const stacks = round.limiters.map((run) => {
    const limiter = limiterOf(run);
    const handlers = run.graphql === undefined ? [restRead] : [bodyParser(), graphqlRead];
    return { graphql: run.graphql !== undefined, run: compose([...(limiter ? [limiter] : []), ...handlers]) };
  });
  const decide = (stack: (typeof stacks)[number], index: number): Promise<void> => {
    const request = new IncomingMessage(new Socket());
    request.headers = { host: 'localhost', [CALLER_HEADER]: `caller-${index % 10}` };
    if (stack.graphql) {
      request.method = 'POST';
      request.url = '/graphql';
      request.headers['content-type'] = 'application/json';
      request.headers['content-length'] = String(GRAPHQL_QUERY.length);
      request.push(GRAPHQL_QUERY);
      request.push(null);
      // As Node's HTTP parser marks a request whose body arrived whole (else its end destroys the socket as aborted).
      request.complete = true;
    } else {
      request.method = 'GET';
      request.url = '/r';
    }
    const ctx = app.createContext(request, new ServerResponse(request));
    return stack.run(ctx).then(() => {
      if (ctx.status !== 200) throw new Error(`decision ${index}: ${ctx.status} ${JSON.stringify(ctx.body)}`);
    });
  };
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
  const decideAll = async (stack: (typeof stacks)[number], count: number): Promise<void> => {
    for (let index = 0; index < count; index += round.perTurn) {
      const turn: Array<Promise<void>> = [];
      for (let one = 0; one < round.perTurn; one++) turn.push(decide(stack, index + one));
      await Promise.all(turn);
      await nextTurn();
    }
  };
  for (const stack of stacks) await decideAll(stack, round.warmUp);
  await instrumentFromHere();
  const collectGarbage = globalThis.gc!;
  for (const stack of stacks) {
    markInstructions();
    collectGarbage();
    markInstructions();
    await decideAll(stack, round.decisions);
  }
  markInstructions();
  process.exit(0);
}

main().catch((failure: unknown) => {
  console.error(failure);
  process.exit(1);
});
