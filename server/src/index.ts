// The package root: the Koa API of the rate limiter, its config schema and types.
export { createRateLimitMiddleware } from './create-middleware';
export type { RateLimitMiddleware, RateLimitMiddlewareOptions } from './create-middleware';
export { parseConfig } from './config/parse-config';
export { RateLimitConfigError, CONFIG_ERROR_CODE } from './config/errors';
export { configSchema } from './config/schema';
export type { RateLimitConfig, RateLimitConfigInput, StrategyConfig, Method, MethodName, Algorithm, WindowText, IdentifierSource, StrategyPath } from './config/schema';
export type { RateLimitLogger, RefusalResponder } from './http/middleware';
export type { Refusal } from './http/refusal';
export type { CallerVerifier, VerifiedCaller } from './http/verified-caller';
export type { FailOpenReport, StoreInUse } from './admin-api/usage-types';
export { StrategyKeys } from './config/keys';
export { normaliseIdentifier, ipIdentifier } from './http/normalise-identifier';
