// The Strapi v5 server plugin `ratelimit`: validates its config at boot (a bad config aborts boot
// naming the field), adds the limiter in bootstrap() (after CORS and Strapi's error handling, before
// the router) unless the app placed `plugin::ratelimit.limit` itself (warning when it placed it
// before strapi::body with GraphQL strategies: middleware-order.ts), serves the admin usage API
// with its RBAC actions, and releases everything in destroy(). Boot also refuses a tier naming a
// users-permissions role the app does not have (role-check.ts). One rate limiter per Strapi instance
// (create-middleware.ts) serves the middleware and the admin API alike: one parsed config, one
// store client. GraphQL strategies count at the GraphQL plugin's endpoint with its page sizes and
// schema (graphql-plugin.ts).
import type { Middleware } from 'koa';
import { adminRoutes, denyController, registerAdminPermissions, usageController, type PermissionStrapi } from '../admin-api';
import { createRateLimiter, type RateLimitMiddleware } from '../create-middleware';
import { currentEnvironment, parseConfig } from '../config/parse-config';
import type { RateLimitConfig } from '../config/schema';
import { reportBoot } from './boot-report';
import { permissiveProxyWarning } from './proxy-warning';
import { strapiRefusal } from './refusal';
import { strapiCallerVerifier, type VerifyingStrapi } from './verify-caller';
import { strapiAdminNames } from './admin-names';
import { strapiCallerNames } from './caller-names';
import { refuseUnknownRoles, type RoleCheckingStrapi } from './role-check';
import { graphqlPluginSettings, watchGraphqlSchema, type GraphqlConfigStrapi } from './graphql-plugin';
import { bodyReadTwiceWarning, middlewareOrder } from './middleware-order';

const PLUGIN_UID = 'plugin::ratelimit';

/** The parts of Strapi's API this plugin uses. */
export interface StrapiLike extends PermissionStrapi, VerifyingStrapi, RoleCheckingStrapi {
  config: { get(path: string, fallback?: unknown): unknown };
  server: { use(middleware: Middleware): void };
  log: { info(message: string): void; warn(message: string): void; error(message: string): void };
}

/** What a lone `*` path covers: the REST prefix and the GraphQL plugin's endpoint, as configured. */
function contentApiPrefixes(strapi: StrapiLike): string[] {
  const restPrefix = strapi.config.get('api.rest.prefix', '/api');
  return [typeof restPrefix === 'string' ? restPrefix : '/api', graphqlPluginSettings(strapi).endpoint];
}

// Strapi runs config.validator on the merged config object, then stores that same object as
// `plugin::ratelimit`: the validator's result is kept for it, so a boot parses the config once.
const validated = new WeakMap<object, { readonly environment: string; readonly config: RateLimitConfig }>();

/** The plugin's config, validated: the validator's result, or parsed here when Strapi did not validate it. */
function configOf(strapi: StrapiLike): RateLimitConfig {
  const input = strapi.config.get(PLUGIN_UID);
  const environment = (strapi.config.get('environment') as string | undefined) ?? currentEnvironment();
  const known = typeof input === 'object' && input !== null ? validated.get(input) : undefined;
  return known?.environment === environment ? known.config : parseConfig(input, environment);
}

// Keyed by instance: two Strapi apps in one process (tests, multi-tenant hosts) each get their own.
const limiters = new WeakMap<StrapiLike, RateLimitMiddleware>();

/** The rate limiter of a Strapi instance, made on first use by bootstrap(), the named middleware or the admin API. */
function limiterFor(strapi: StrapiLike): RateLimitMiddleware {
  let limiter = limiters.get(strapi);
  if (!limiter) {
    const config = configOf(strapi);
    limiter = createRateLimiter(config, {
      logger: strapi.log,
      contentApiPrefixes: contentApiPrefixes(strapi),
      graphql: graphqlPluginSettings(strapi),
      refuse: strapiRefusal(middlewareOrder(strapi.config).errorsOutside),
      verifyCaller: strapiCallerVerifier(strapi, { readRoles: config.strategy.some((strategy) => strategy.tiers?.roles !== undefined) }),
    });
    limiters.set(strapi, limiter);
  }
  return limiter;
}

export const strapiServerPlugin = {
  config: {
    default: { enabled: true, prefix: '@cms', analytics: false, strategy: [] },
    validator(config: unknown): void {
      const environment = currentEnvironment();
      const parsed = parseConfig(config, environment);
      if (typeof config === 'object' && config !== null) validated.set(config, { environment, config: parsed });
    },
  },
  register({ strapi }: { strapi: GraphqlConfigStrapi }): void {
    watchGraphqlSchema(strapi);
  },
  async bootstrap({ strapi }: { strapi: StrapiLike }): Promise<void> {
    // The limiter goes in before anything is awaited, so no request can arrive ahead of it.
    const limiter = limiterFor(strapi);
    const order = middlewareOrder(strapi.config);
    if (limiter.config.enabled && !order.placedByApp) strapi.server.use(limiter);
    const proxyWarning = limiter.config.enabled && limiter.config.strategy.length > 0 ? permissiveProxyWarning(strapi.config) : undefined;
    if (proxyWarning) strapi.log.warn(proxyWarning);
    // GraphQL strategies are the only ones that read request bodies.
    if (limiter.config.enabled && order.beforeBody && limiter.config.strategy.some((strategy) => 'graphql' in strategy)) strapi.log.warn(bodyReadTwiceWarning(graphqlPluginSettings(strapi).endpoint));
    // Every config check passes before the boot line says what the plugin limits: a fatal one comes alone.
    await refuseUnknownRoles(strapi, limiter.config);
    await Promise.all([reportBoot(limiter, strapi.log), registerAdminPermissions(strapi)]);
  },
  destroy({ strapi }: { strapi: StrapiLike }): void {
    limiters.get(strapi)?.close();
    limiters.delete(strapi);
  },
  routes: { admin: { type: 'admin', routes: adminRoutes } },
  controllers: {
    usage: ({ strapi }: { strapi: StrapiLike }) => usageController(() => limiterFor(strapi), strapiCallerNames(strapi)),
    deny: ({ strapi }: { strapi: StrapiLike }) => denyController(() => limiterFor(strapi), strapiAdminNames(strapi)),
  },
  middlewares: {
    limit: (_options: unknown, { strapi }: { strapi: StrapiLike }): Middleware => limiterFor(strapi),
  },
};
