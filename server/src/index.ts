// The package root: what the README documents for code, and nothing else. Values: the Koa API
// (`createRateLimitMiddleware`, docs/limiting.md "Plain Koa") and its config error (`RateLimitConfigError`, code
// `CONFIG_ERROR_CODE`, README "Configuration"). Types: the config as written (`RateLimitConfigInput`,
// with the literal types of its fields) and validated, and what the Koa API takes and returns.
// tests/unit/package/package-exports-what-the-readme-documents.test.ts lists the values.
export { createRateLimitMiddleware } from './create-middleware';
export type { RateLimitMiddleware, RateLimitMiddlewareOptions } from './create-middleware';
export { RateLimitConfigError, CONFIG_ERROR_CODE } from './config/errors';
export type { RateLimitConfig, RateLimitConfigInput, StrategyConfig, Method, MethodName, Algorithm, WindowText, IdentifierSource, StrategyPath } from './config/schema';
export type { RateLimitLogger, RefusalResponder } from './http/middleware';
export type { Refusal } from './http/refusal';
export type { CallerVerifier, VerifiedCaller } from './http/verified-caller';
export type { StoreCheck } from './store/store-check';
export type { UsageLimits } from './admin-api/usage-service';
export type { AnalyticsReport, CallerCounter, ConfiguredReport, ConfiguredStrategy, FailOpenReport, HourlyCount, StoreInUse, StrategyUsage, UsageReport } from './admin-api/usage-types';
