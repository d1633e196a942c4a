// The peer, rate-limiter-flexible, as its README wires it into Koa: consume one point per request of
// the caller the header names (else its IP), 429 on rejection. Shared by the apps under load
// (koa-app-process.ts) and the instruction counts (decision-instructions-process.ts), so both
// measure the same middleware.
import type { Middleware } from 'koa';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';

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
