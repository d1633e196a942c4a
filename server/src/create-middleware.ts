// The rate limiter of one app, built once from a validated config: its rules (config/rules.ts), one
// store client, the Koa middleware, and the usage report and reset that the admin API serves. The
// Strapi plugin keeps one per Strapi instance for its middleware and its admin API alike (its config
// comes from files, unknown until validated: strapi/plugin.ts parses it and calls createRateLimiter);
// plain Koa apps call createRateLimitMiddleware with a typed config.
import type { Middleware } from 'koa';
import { asConfigError } from './config/errors';
import { parseConfig } from './config/parse-config';
import { compileConfig, type CompiledConfig } from './config/rules';
import type { Redis } from '@upstash/redis';
import type { RateLimitConfig, RateLimitConfigInput } from './config/schema';
import { compileStrategies } from './http/compile-strategies';
import { compileHeaderPrivacy } from './http/header-privacy';
import { HeaderHashKey, HeaderHashKeyError } from './http/header-hash-key';
import { jsonRefusal, RateLimiter, type RateLimitLogger, type RefusalResponder } from './http/middleware';
import { openStore } from './store/open-store';
import { checkStore, type StoreCheck } from './store/store-check';
import { measureClockOffset, type ClockOffset } from './store/store-clock';
import type { CallerVerifier } from './http/verified-caller';
import { configuredReport, DEFAULT_USAGE_LIMITS, readUsage, resetCaller, type UsageLimits } from './admin-api/usage-service';
import type { ConfiguredReport, FailOpenReport, LiveLimitResult, StoreInUse, UsageReport } from './admin-api/usage-types';
import { changeLiveLimit } from './admin-api/change-live-limit';
import { liveLimitsUnderOldRoutes, type LiveLimitUnderOldRoute } from './admin-api/live-limits-under-old-routes';
import { createDenyAdmin, type DenyAdmin } from './deny/deny-admin';
import { compileGraphqlLimits, DEFAULT_GRAPHQL_OPTIONS, type GraphqlOptions } from './graphql/graphql-limits';

export type { GraphqlOptions } from './graphql/graphql-limits';

export interface RateLimitMiddlewareOptions {
  /** Where debug lines and store warnings go (default: console). */
  logger?: RateLimitLogger;
  /** What a lone `*` path covers; default: every path. Strapi passes its REST prefix and /graphql. */
  contentApiPrefixes?: readonly string[];
  /** How refusals are answered (default: a JSON error body). */
  refuse?: RefusalResponder;
  /** Verifies a request's user or API token for `identifierSource: 'user'` (the Strapi plugin passes Strapi's own). */
  verifyCaller?: CallerVerifier;
  /** `production` requires url and token; elsewhere a config without url runs the embedded store. Default: NODE_ENV. */
  environment?: string;
  /**
   * Where GraphQL strategies count (docs/graphql.md): the GraphQL endpoint, its page sizes and its
   * schema. Default `{ endpoint: '/graphql', defaultLimit: 25, maxLimit: 100 }`, no schema. The
   * Strapi plugin fills it from the GraphQL plugin's config and built schema.
   */
  graphql?: Partial<GraphqlOptions>;
}

export type RateLimitMiddleware = Middleware & DenyAdmin & {
  /** The validated config, defaults applied. */
  readonly config: RateLimitConfig;
  /** Requests let through unchecked because the store failed or timed out (failureMode 'open'). */
  failOpen(): FailOpenReport;
  /** Which store the limiter uses (a URL without credentials, or the embedded store). */
  readonly store: StoreInUse;
  /** One round trip on the plugin's own keys: whether the store answers and can serve them (boot runs it once). */
  checkStore(): Promise<StoreCheck>;
  /** This instance's clock against the store's (one TIME round trip; boot runs it once and warns past a second). Rejects with the store's failure. */
  measureClockOffset(): Promise<ClockOffset>;
  /**
   * Reads (the first instance: creates) the deployment's key of hashed header identifiers in the
   * store, when a strategy needs it and the config gives no `headerHashSecret`; resolves at once
   * otherwise. Rejects with the store's failure; requests needing the key get the failure mode until
   * a read succeeds (the Strapi plugin awaits this at boot; otherwise the first such request reads it).
   */
  readHeaderHashKey(): Promise<void>;
  /**
   * The strategies whose live limit the key-route upgrade left at a key no longer read
   * (admin-api/live-limits-under-old-routes.ts: one round trip; boot warns of each). Rejects with the store's failure.
   */
  liveLimitsUnderOldRoutes(): Promise<LiveLimitUnderOldRoute[]>;
  /** The strategies with their callers' live counters (what `GET /ratelimit/usage` answers); limits default to DEFAULT_USAGE_LIMITS. */
  readUsage(limits?: Partial<UsageLimits>): Promise<UsageReport>;
  /** What of that report needs no store (the configured strategies, the fail-open count): the page's view during an outage. */
  configuredReport(): ConfiguredReport;
  /**
   * Deletes one caller's counters on one strategy and forgets its block in this instance's memory
   * (other instances sharing the store keep theirs until it ends); resolves with the keys deleted.
   * Rejects with a RangeError for anything but the index of a configured strategy.
   */
  resetCaller(strategyIndex: number, identifier: string): Promise<number>;
  /**
   * Sets a strategy's live limit (tokens), or removes it (null: back to the config), for every
   * instance sharing the store; logs the change with `by` (who made it). Rejects with a RangeError
   * for anything but the index of a configured strategy (`'0'` included) or tokens that are not a
   * whole number from 1 to MAX_TOKENS.
   */
  setLiveLimit(strategyIndex: number, tokens: number | null, by: string): Promise<LiveLimitResult>;
  /** Releases the store connections. */
  close(): void;
};

const consoleLogger: RateLimitLogger = { info: (message) => console.info(message), warn: (message) => console.warn(message), error: (message) => console.error(message) };

/** The key of hashed header identifiers (http/header-hash-key.ts): the config's secret, the shared store's, or this process's own. */
function headerHashKeyOf(config: CompiledConfig, store: StoreInUse, redis: Redis, logger: RateLimitLogger): HeaderHashKey {
  if (config.headerHashSecret !== undefined) return HeaderHashKey.fromSecret(config.headerHashSecret);
  if (store.kind === 'embedded' || store.kind === 'none') return HeaderHashKey.random();
  // The credential every instance sharing the store holds, the key's source before it was stored: an upgrade keeps the identifiers.
  return HeaderHashKey.inStore(redis, config.prefix, config.storeAddress?.kind === 'redis' ? config.url : config.token, logger);
}

/** Builds the limiter of a validated config (see the file header for who calls this). */
export function createRateLimiter(validated: RateLimitConfig, options: RateLimitMiddlewareOptions = {}): RateLimitMiddleware {
  // A field left undefined (a GraphQL plugin config without defaultLimit) keeps its default.
  const given = Object.fromEntries(Object.entries(options.graphql ?? {}).filter(([, value]) => value !== undefined));
  const graphqlOptions: GraphqlOptions = { ...DEFAULT_GRAPHQL_OPTIONS, ...given };
  const config = compileConfig(validated, graphqlOptions.endpoint);
  const { redis, scripts, store, admin, onReconnect, close } = asConfigError('url', () => openStore(config, config.timeout));
  const logger = options.logger ?? consoleLogger;
  const privacy = compileHeaderPrivacy(config.hashHeaderValues, headerHashKeyOf(config, store, redis, logger));
  // A Redis that restarted or failed over may have lost the stored key: the next hashing writes it back.
  onReconnect(() => privacy.key.storeCameBack());
  const { hasherFor } = privacy;
  const rules = compileStrategies(config, redis, hasherFor, options.contentApiPrefixes, scripts);
  let graphql: ReturnType<typeof compileGraphqlLimits>;
  try {
    graphql = compileGraphqlLimits(config, rules, graphqlOptions, logger);
  } catch (failure) {
    close();
    throw failure;
  }
  const limiter = new RateLimiter(config, rules, logger, options.refuse ?? jsonRefusal, redis, scripts, privacy, options.verifyCaller, graphql);
  const keyNeeded = rules.some((rule) => privacy.hashes(rule.strategy.identifierSource));
  const denyAdmin = createDenyAdmin(redis, config, hasherFor, limiter.allowed, limiter.denyList, logger);
  const middleware: Middleware = config.enabled ? limiter.middleware : (_ctx, next) => next();
  const failOpen = (): FailOpenReport => limiter.health.report();
  return Object.assign(middleware, {
    config: validated,
    store,
    failOpen,
    checkStore: () => checkStore(redis, config),
    measureClockOffset: () => measureClockOffset(redis),
    readHeaderHashKey: () => (keyNeeded ? privacy.key.ready() : Promise.resolve()),
    liveLimitsUnderOldRoutes: () => liveLimitsUnderOldRoutes(redis, config.rules),
    readUsage: (limits: Partial<UsageLimits> = {}) => readUsage(redis, config, { ...DEFAULT_USAGE_LIMITS, ...limits }, Date.now(), failOpen(), {
      classOf: (identifier, now) => limiter.callersSeen.classOf(identifier, now),
      refusedHere: limiter.refusedHere,
    }),
    configuredReport: () => configuredReport(config, Date.now(), failOpen()),
    async resetCaller(strategyIndex: number, identifier: string): Promise<number> {
      const deleted = await resetCaller(redis, config, strategyIndex, identifier);
      limiter.forgetBlocked(strategyIndex, identifier);
      return deleted;
    },
    setLiveLimit: (strategyIndex: number, tokens: number | null, by: string) => changeLiveLimit({ redis, admin, config, logger, changed: limiter.liveLimitChanged }, strategyIndex, tokens, by),
    ...denyAdmin,
    // A header caller is denied as its identities are keyed, with the deployment's key. The input is
    // validated first (a 400 needs no store); valid input that needs the key, not read yet, waits for it.
    denyCaller: (request: unknown, by: string, adminId?: string) =>
      denyAdmin.denyCaller(request, by, adminId).catch((failure: unknown) => {
        if (!(failure instanceof HeaderHashKeyError) || privacy.key.known) throw failure;
        return privacy.key.ready().then(() => denyAdmin.denyCaller(request, by, adminId));
      }),
    close,
  });
}

/**
 * Validates `config` and compiles its strategies (throwing a RateLimitConfigError, code
 * ERR_RATELIMIT_CONFIG, that names each offending field) and returns the Koa middleware. Call
 * `close()` when the app stops.
 */
export function createRateLimitMiddleware(config: RateLimitConfigInput, options: RateLimitMiddlewareOptions = {}): RateLimitMiddleware {
  return createRateLimiter(parseConfig(config, options.environment), options);
}
