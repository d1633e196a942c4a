// The floor of the stack the project must limit through (@upstash/ratelimit, on @upstash/redis): the
// library's sliding window, its public `limit` with every per-call option off (no analytics, no
// ephemeral cache, no timeout race, no deny list), through @upstash/redis on the least Requester there
// is over ioredis (each command sent with ioredis's `call`, its reply answered as `{ result }`), in
// the peer's Koa middleware shape (peer-middleware.ts: no headers, no deny list, a bare 429). No
// plugin code: what any limiter built on the mandated libraries over ioredis pays at least per
// decision, counted by `npm run bench:instructions` beside the peer (issue 36).
import { Ratelimit } from '@upstash/ratelimit';
import { Redis as UpstashRedis, type Requester } from '@upstash/redis';
import type Redis from 'ioredis';
import type { Middleware } from 'koa';
import { scriptForRedis70, scriptSha } from '../shared/script-shebang';

/**
 * A Requester that sends each command's array as it comes over `connection` and answers its reply as
 * the REST API would (`{ result }`); a reply error rejects, as ioredis rejects it, which the library's
 * NOSCRIPT fallback (safeEval: EVALSHA, then EVAL) reads the same way. One step more than that, which
 * any limiter on these libraries over Redis 7 needs: the library's scripts start with `#!lua
 * flags=allow-key-locking`, which Redis 7.0 refuses, so an EVAL sends the text without the flag
 * (shared/script-shebang.ts, as the plugin's Redis transport does) and an EVALSHA names the SHA Redis
 * runs it under: a comparison and a Map lookup per command.
 */
export function ioredisRequester(connection: Pick<Redis, 'call'>): Requester {
  /** The SHA of the library's text -> the SHA of the text Redis runs. */
  const runsAs = new Map<string, string>();
  return {
    request: async ({ body }) => {
      const [command, ...args] = body as [string, ...Array<string | number>];
      if (command === 'evalsha') args[0] = runsAs.get(args[0] as string) ?? args[0];
      else if (command === 'eval') {
        const sent = scriptForRedis70(args[0] as string);
        runsAs.set(scriptSha(args[0] as string), scriptSha(sent));
        args[0] = sent;
      }
      return { result: (await connection.call(command, ...args)) as never };
    },
  };
}

/** A window in the library's spelling (`1 m`, as the plugin passes a strategy's `1m`). */
type Window = Parameters<typeof Ratelimit.slidingWindow>[1];

/** `limit` tokens per `window` per caller, the caller named by `callerHeader` (else its IP), on `connection`. */
export function upstashRatelimitOnIoredis(connection: Pick<Redis, 'call'>, options: { readonly limit: number; readonly window: Window; readonly prefix: string; readonly callerHeader: string }): Middleware {
  const redis = new UpstashRedis(ioredisRequester(connection));
  const ratelimit = new Ratelimit({ redis, limiter: Ratelimit.slidingWindow(options.limit, options.window), prefix: options.prefix, analytics: false, ephemeralCache: false, timeout: 0 });
  return async (ctx, next) => {
    const { success } = await ratelimit.limit(ctx.get(options.callerHeader) || ctx.ip);
    if (!success) {
      ctx.status = 429;
      ctx.body = { error: 'Too many requests' };
      return;
    }
    return next();
  };
}
