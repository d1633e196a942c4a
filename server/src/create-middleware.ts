// The plugin's public Koa API: validate a config, compile its strategies and get the middleware.
// The Strapi plugin uses this same function; plain Koa apps can use it directly.
import type { Redis } from '@upstash/redis';
import type { Middleware } from 'koa';
import { asConfigError } from './config/errors';
import { parseConfig } from './config/parse-config';
import type { RateLimitConfig, RateLimitConfigInput } from './config/schema';
import { compileStrategies } from './http/compile-strategies';
import { compileHeaderPrivacy, headerHashKey } from './http/header-privacy';
import { jsonRefusal, RateLimiter, type RateLimitLogger, type RefusalResponder } from './http/middleware';
import { openStore } from './limiter/open-store';
import { describeStore } from './limiter/store-in-use';
import { checkStore, type StoreCheck } from './limiter/store-check';
import type { CallerVerifier } from './http/verified-caller';
import type { FailOpenReport, StoreInUse } from './admin-api/usage-types';

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
}

export type RateLimitMiddleware = Middleware & {
  /** The validated config, defaults applied. */
  readonly config: RateLimitConfig;
  /** The store client the limiters use. */
  readonly redis: Redis;
  /** Forgets a caller's in-memory block on one strategy (after its counters were reset in the store). */
  forgetBlocked(strategyIndex: number, caller: string): void;
  /** Requests let through unchecked because the store failed or timed out (failureMode 'open'). */
  failOpen(): FailOpenReport;
  /** Which store the limiter uses (a URL without credentials, or the embedded store). */
  readonly store: StoreInUse;
  /** The same, as a phrase for logs. */
  readonly storeDescription: string;
  /** One round trip: whether the store answers and accepts the token (boot runs it once). */
  checkStore(): Promise<StoreCheck>;
  /** Releases the store connections. */
  close(): void;
};

const consoleLogger: RateLimitLogger = { info: (message) => console.info(message), warn: (message) => console.warn(message) };

/**
 * Validates `config` and compiles its strategies (throwing a RateLimitConfigError, code
 * ERR_RATELIMIT_CONFIG, that names each offending field) and returns the Koa middleware. Call
 * `close()` when the app stops.
 */
export function createRateLimitMiddleware(input: RateLimitConfigInput, options: RateLimitMiddlewareOptions = {}): RateLimitMiddleware {
  const config = parseConfig(input, options.environment);
  const { redis, store, close } = asConfigError('url', () => openStore(config, config.timeout));
  const hasherFor = compileHeaderPrivacy(config.hashHeaderValues, headerHashKey(config.token));
  const rules = compileStrategies(config, redis, hasherFor, options.contentApiPrefixes);
  const limiter = new RateLimiter(config, rules, options.logger ?? consoleLogger, options.refuse ?? jsonRefusal, redis, hasherFor, options.verifyCaller);
  const middleware: Middleware = config.enabled ? limiter.middleware : (_ctx, next) => next();
  return Object.assign(middleware, { config, redis, store, storeDescription: describeStore(store), checkStore: () => checkStore(redis), forgetBlocked: limiter.forgetBlocked, failOpen: () => limiter.health.report(), close });
}
