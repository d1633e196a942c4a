// A limiter's decisions through Koa's middleware stack, on Koa contexts built from Node's own request
// and response objects (no HTTP server: no socket, no load generator, whose costs would bury the
// limiter's), `perTurn` requests at a time and then the next turn of the event loop (setImmediate),
// so with one per turn every request is alone in its turn, as at the moderate load of issue 36.
// Requests come from 10 callers in turn. Shared by the instruction counts of the app
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

export function koaDecisions(limiter: Middleware | undefined, perTurn: number): Decisions {
  const app = new Koa();
  const stack = compose([...(limiter ? [limiter] : []), (ctx: Koa.Context) => void (ctx.body = { ok: true })]);
  const decide = (index: number): Promise<void> => {
    const request = new IncomingMessage(new Socket());
    request.method = 'GET';
    request.url = '/r';
    request.headers = { host: 'localhost', [CALLER_HEADER]: `caller-${index % 10}` };
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

/** The plugin's warnings (a store that failed, a decision let through unlimited), where the caller wants them. */
export type Warn = (line: string) => void;

/**
 * The plugin of the build in `pluginRoot` (a checkout whose `dist/` holds it) on the store at `url`
 * (none: the embedded store), with one sliding window keyed by CALLER_HEADER that never refuses;
 * `timeout`: the plugin's, for a store slowed down by callgrind.
 */
export function pluginMiddleware(pluginRoot: string, store: { readonly url?: string; readonly token?: string; readonly denyList?: false; readonly timeout?: number }, warn: Warn = () => undefined): Middleware {
  const plugin = require(path.join(pluginRoot, 'dist/server/src')) as typeof import('../server/src');
  const logger = { info: () => undefined, warn, error: warn, debug: () => undefined };
  return plugin.createRateLimitMiddleware(
    {
      ...(store.url === undefined ? {} : { url: store.url, token: store.token }),
      ...(store.denyList === false ? { denyList: false } : {}),
      ...(store.timeout === undefined ? {} : { timeout: store.timeout }),
      strategy: [{ methods: ['GET'], path: '/r', identifierSource: `header.${CALLER_HEADER}`, limiter: { algorithm: 'sliding-window', tokens: HIGH, window: '1m' } }],
    },
    { logger, environment: 'development' },
  );
}
