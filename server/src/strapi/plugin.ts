// The Strapi v5 server plugin `ratelimit`: validates its config at boot (a bad config aborts boot
// naming the field), adds the limiter in bootstrap() (after CORS and Strapi's error handling, before
// the router) unless the app placed `plugin::ratelimit.limit` itself, serves the admin usage API
// with its RBAC actions, and releases everything in destroy().
import type { Middleware } from 'koa';
import { adminControllers, adminRoutes, adminStoreShares, closeAdminStore, onCallerReset, registerAdminPermissions, reportFailOpenFrom, type PermissionStrapi } from '../admin-api';
import { createRateLimitMiddleware, type RateLimitMiddleware } from '../create-middleware';
import { parseConfig } from '../config/parse-config';
import type { RateLimitConfigInput } from '../config/schema';
import { reportBoot } from './boot-report';
import { permissiveProxyWarning } from './proxy-warning';
import { strapiRefusal } from './refusal';
import { strapiCallerVerifier, type VerifyingStrapi } from './verify-caller';

const PLUGIN_UID = 'plugin::ratelimit';
const MIDDLEWARE_UID = `${PLUGIN_UID}.limit`;
const ERRORS_MIDDLEWARE_UID = 'strapi::errors';

/** The parts of Strapi's API this plugin uses. */
export interface StrapiLike extends PermissionStrapi, VerifyingStrapi {
  config: { get(path: string, fallback?: unknown): unknown };
  server: { use(middleware: Middleware): void };
  log: { info(message: string): void; warn(message: string): void; error(message: string): void };
}

/** Whether an entry of config/middlewares is the middleware `uid` (written as a string or `{ name }`). */
const isEntry = (uid: string) => (entry: unknown): boolean =>
  entry === uid || (typeof entry === 'object' && entry !== null && (entry as { name?: unknown }).name === uid);

function appMiddlewares(strapi: StrapiLike): unknown[] {
  const middlewares = strapi.config.get('middlewares', []);
  return Array.isArray(middlewares) ? middlewares : [];
}

function placedByApp(strapi: StrapiLike): boolean {
  return appMiddlewares(strapi).some(isEntry(MIDDLEWARE_UID));
}

/** Whether Strapi's error middleware runs around the limiter: always when the plugin adds itself in bootstrap(). */
function errorMiddlewareOutside(strapi: StrapiLike): boolean {
  const middlewares = appMiddlewares(strapi);
  const limiterAt = middlewares.findIndex(isEntry(MIDDLEWARE_UID));
  if (limiterAt < 0) return true;
  const errorsAt = middlewares.findIndex(isEntry(ERRORS_MIDDLEWARE_UID));
  return errorsAt >= 0 && errorsAt < limiterAt;
}

function contentApiPrefixes(strapi: StrapiLike): string[] {
  const restPrefix = strapi.config.get('api.rest.prefix', '/api');
  return [typeof restPrefix === 'string' ? restPrefix : '/api', '/graphql'];
}

// Keyed by instance: two Strapi apps in one process (tests, multi-tenant hosts) each get their own.
const limiters = new WeakMap<StrapiLike, RateLimitMiddleware>();

/** One limiter per Strapi instance, shared by bootstrap() and the named middleware. */
function limiterFor(strapi: StrapiLike): RateLimitMiddleware {
  let limiter = limiters.get(strapi);
  if (!limiter) {
    // Strapi's config is read from files at run time: createRateLimitMiddleware validates it (its config.validator did too).
    limiter = createRateLimitMiddleware(strapi.config.get(PLUGIN_UID) as RateLimitConfigInput, {
      logger: strapi.log,
      contentApiPrefixes: contentApiPrefixes(strapi),
      refuse: strapiRefusal(errorMiddlewareOutside(strapi)),
      verifyCaller: strapiCallerVerifier(strapi),
      environment: strapi.config.get('environment') as string | undefined,
    });
    limiters.set(strapi, limiter);
  }
  return limiter;
}

export const strapiServerPlugin = {
  config: {
    default: { enabled: true, prefix: '@cms', analytics: false, strategy: [] },
    validator(config: unknown): void {
      parseConfig(config);
    },
  },
  register(): void {},
  async bootstrap({ strapi }: { strapi: StrapiLike }): Promise<void> {
    // The limiter goes in before anything is awaited, so no request can arrive ahead of it.
    const limiter = limiterFor(strapi);
    if (limiter.config.enabled && !placedByApp(strapi)) strapi.server.use(limiter);
    const proxyWarning = limiter.config.enabled && limiter.config.strategy.length > 0 ? permissiveProxyWarning(strapi.config) : undefined;
    if (proxyWarning) strapi.log.warn(proxyWarning);
    if (limiter.store.kind === 'embedded') adminStoreShares(strapi, limiter.redis);
    onCallerReset(strapi, limiter.forgetBlocked);
    reportFailOpenFrom(strapi, limiter.failOpen);
    await Promise.all([reportBoot(limiter, strapi.log), registerAdminPermissions(strapi)]);
  },
  destroy({ strapi }: { strapi: StrapiLike }): void {
    limiters.get(strapi)?.close();
    limiters.delete(strapi);
    closeAdminStore(strapi);
  },
  routes: { admin: { type: 'admin', routes: adminRoutes } },
  controllers: adminControllers,
  middlewares: {
    limit: (_options: unknown, { strapi }: { strapi: StrapiLike }): Middleware => limiterFor(strapi),
  },
};
