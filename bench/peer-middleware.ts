// The peer, rate-limiter-flexible, as its README wires it into Koa: consume one point per request of
// the caller the header names (else its IP), 429 on rejection. Shared by the apps under load (Koa:
// koa-app-process.ts; Strapi: strapi-app-extension.ts) and the instruction counts
// (decision-instructions-process.ts), so all of them measure the same middleware on the same store.
import Redis from 'ioredis';
import type { Middleware } from 'koa';
import { RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { HIGH } from './scenarios';

export function rateLimiterFlexible(limiter: RateLimiterAbstract, callerHeader: string): Middleware {
  return async (ctx, next) => {
    try {
      await limiter.consume(ctx.get(callerHeader) || ctx.ip);
    } catch (rejection) {
      if (rejection instanceof Error) throw rejection;
      ctx.status = 429;
      ctx.body = { error: 'Too many requests' };
      return;
    }
    return next();
  };
}

/** The peer on the redis-server at `redisUrl`: rate-limiter-flexible's Redis store on its own ioredis connection, one point a minute per caller. */
export function rateLimiterFlexibleOnRedis(redisUrl: string, keyPrefix: string, callerHeader: string): Middleware {
  return rateLimiterFlexible(new RateLimiterRedis({ storeClient: new Redis(redisUrl), points: HIGH, duration: 60, keyPrefix }), callerHeader);
}
