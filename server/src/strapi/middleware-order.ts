// Where the app placed the limiter among Strapi's global middlewares (config/middlewares), read at
// boot: whether it placed `plugin::ratelimit.limit` at all (then the plugin does not add itself),
// whether Strapi's error middleware runs around it, and whether it runs before `strapi::body` while
// GraphQL strategies read request bodies. strapi::body (koa-body) skips the GraphQL route only when
// ctx.url is exactly the endpoint; at `/graphql?x=1` or `/graphql/` it reads the body again after
// the plugin read it, and finds the request stream spent: Strapi answers 500 (measured with Strapi's
// own body middleware, tests/integration/plugin). A body the plugin leaves unread it answers itself
// (graphql/graphql-request.ts), so nothing runs uncounted; the warning names the placement that works.

const MIDDLEWARE_UID = 'plugin::ratelimit.limit';
const ERRORS_MIDDLEWARE_UID = 'strapi::errors';
const BODY_MIDDLEWARE_UID = 'strapi::body';

/** Whether an entry of config/middlewares is the middleware `uid` (written as a string or `{ name }`). */
const isEntry = (uid: string) => (entry: unknown): boolean =>
  entry === uid || (typeof entry === 'object' && entry !== null && (entry as { name?: unknown }).name === uid);

export interface MiddlewareOrder {
  /** The app lists `plugin::ratelimit.limit` itself. */
  readonly placedByApp: boolean;
  /** Strapi's error middleware runs around the limiter: always when the plugin adds itself in bootstrap(). */
  readonly errorsOutside: boolean;
  /** The app lists the limiter before `strapi::body`. */
  readonly beforeBody: boolean;
}

export function middlewareOrder(config: { get(path: string, fallback?: unknown): unknown }): MiddlewareOrder {
  const listed = config.get('middlewares', []);
  const middlewares: unknown[] = Array.isArray(listed) ? listed : [];
  const limiterAt = middlewares.findIndex(isEntry(MIDDLEWARE_UID));
  const errorsAt = middlewares.findIndex(isEntry(ERRORS_MIDDLEWARE_UID));
  const bodyAt = middlewares.findIndex(isEntry(BODY_MIDDLEWARE_UID));
  return {
    placedByApp: limiterAt >= 0,
    errorsOutside: limiterAt < 0 || (errorsAt >= 0 && errorsAt < limiterAt),
    beforeBody: limiterAt >= 0 && bodyAt > limiterAt,
  };
}

/** The boot warning for a limiter placed before strapi::body while GraphQL strategies read bodies at `endpoint`. */
export const bodyReadTwiceWarning = (endpoint: string): string =>
  `[ratelimit] config/middlewares lists ${MIDDLEWARE_UID} before ${BODY_MIDDLEWARE_UID}: a GraphQL request at ${endpoint}/ or ${endpoint}?... ` +
  `has its body read by the plugin and then again by ${BODY_MIDDLEWARE_UID}, which skips only ${endpoint} exactly, and is answered 500. ` +
  `List ${MIDDLEWARE_UID} after ${BODY_MIDDLEWARE_UID}.`;
