// How a refused request is answered. A refusal carries the limit that refused it (`limit`,
// `remaining`, `reset` in ms since the epoch) so that clients can read it from the body as well as
// from the headers. Plain Koa apps get a JSON error body in Strapi's shape; the Strapi plugin
// answers through Strapi's own errors (strapi/refusal.ts).
import type { Context } from 'koa';

export type Refusal =
  | { readonly status: 429; readonly message: string; readonly limit: number; readonly remaining: number; readonly reset: number }
  | { readonly status: 403 | 503; readonly message: string };

export type RefusalResponder = (ctx: Context, refusal: Refusal) => void;

/** What the middleware returns once it has answered by itself: one settled promise, shared. */
export const ANSWERED: Promise<void> = Promise.resolve();

export const TOO_MANY_REQUESTS = 'Too many requests, please try again later';
export const STORE_UNAVAILABLE = 'Rate limiting is unavailable, please retry later';
/** A denied caller's refusal: waiting does not help, so no reset is given. */
export const DENIED = 'This caller is denied access';

const ERROR_NAMES = { 403: 'ForbiddenError', 429: 'TooManyRequestsError', 503: 'ServiceUnavailableError' } as const;

/** What a refusal's `details` hold: the refusing limit for a 429, nothing for a 403 or a 503. */
export function refusalDetails(refusal: Refusal): Record<string, number> {
  return refusal.status === 429 ? { limit: refusal.limit, remaining: refusal.remaining, reset: refusal.reset } : {};
}

/** Plain Koa: a JSON error body in the shape Strapi uses. */
export const jsonRefusal: RefusalResponder = (ctx, refusal) => {
  ctx.status = refusal.status;
  ctx.body = { data: null, error: { status: refusal.status, name: ERROR_NAMES[refusal.status], message: refusal.message, details: refusalDetails(refusal) } };
};
