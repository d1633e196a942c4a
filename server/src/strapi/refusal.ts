// Refusals inside Strapi, as Strapi's own rate limiters answer (the admin login and the
// users-permissions auth routes): a 429 is @strapi/utils' `errors.RateLimitError`, with the refusing
// limit in `details`, thrown to Strapi's error middleware, which answers
// `{"data":null,"error":{"status":429,"name":"RateLimitError",...}}` without logging a stack. When the
// app placed the limiter ahead of that middleware, nothing would catch the throw, so the same body
// is written directly. A denied caller's 403 is `errors.ForbiddenError`, the same way. A 503
// (failureMode 'closed') goes through Strapi's `ctx.serviceUnavailable`.
import { errors } from '@strapi/utils';
import type { Context } from 'koa';
import { refusalDetails, type RefusalResponder } from '../http/refusal';

type StrapiContext = Context & { serviceUnavailable?: (message: string, details?: object) => void };

/** @param errorMiddlewareOutside whether `strapi::errors` runs around the limiter and catches what it throws. */
export function strapiRefusal(errorMiddlewareOutside: boolean): RefusalResponder {
  return (ctx, refusal) => {
    if (refusal.status === 429 || refusal.status === 403) {
      const error = refusal.status === 429 ? new errors.RateLimitError(refusal.message, refusalDetails(refusal)) : new errors.ForbiddenError(refusal.message, {});
      if (errorMiddlewareOutside) throw error;
      ctx.status = refusal.status;
      ctx.body = { data: null, error: { status: refusal.status, name: error.name, message: error.message, details: error.details } };
      return;
    }
    const serviceUnavailable = (ctx as StrapiContext).serviceUnavailable;
    if (serviceUnavailable) serviceUnavailable.call(ctx, refusal.message);
    else ctx.throw(503, refusal.message);
  };
}
