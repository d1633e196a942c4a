// Compiles each rule of a config once for the request path: which paths it covers, how it
// identifies callers and which limiter counts for it. Nothing here runs per request.
import type { Ratelimit } from '@upstash/ratelimit';
import type { Redis } from '@upstash/redis';
import { asConfigError } from '../config/errors';
import type { CompiledConfig, Rule } from '../config/rules';
import { createLimiter } from '../limiter/create-limiter';
import type { LibraryScriptClient } from '../limiter/script-client';
import { compileReopening, type Reopening } from '../limiter/reopening';
import type { HeaderValueHasher } from './header-privacy';
import { compileIdentifier, type IdentifierExtractor } from './identify';
import { compilePathMatcher, type PathMatcher } from './match';

export interface CompiledRule extends Rule {
  readonly matches: PathMatcher;
  readonly identify: IdentifierExtractor;
  readonly limiter: Ratelimit;
  /** When a caller this rule refused could be admitted again: how long the block cache may answer for it. */
  readonly reopensAt: Reopening;
  /** The window in whole seconds (at least 1), for `RateLimit-Policy`. */
  readonly windowSeconds: number;
}

function compileStrategy(rule: Rule, redis: Redis, hasherFor: (header: string) => HeaderValueHasher, contentApiPrefixes: readonly string[] | undefined, scripts: LibraryScriptClient): CompiledRule {
  return {
    ...rule,
    matches: compilePathMatcher(rule.path, contentApiPrefixes),
    identify: compileIdentifier(rule.strategy.identifierSource, hasherFor),
    limiter: asConfigError(`strategy[${rule.index}].limiter`, () => createLimiter(rule, scripts)),
    reopensAt: compileReopening(rule, redis),
    windowSeconds: Math.max(1, Math.round(rule.limit.window.milliseconds / 1000)),
  };
}

/**
 * Compiles the rules of a config. Whatever still fails here (a limit the algorithms refuse in a
 * config that bypassed the schema) is a RateLimitConfigError naming the strategy's field.
 * `hasherFor` decides which header values are keyed by their HMAC (header-privacy.ts); the limiters
 * run their scripts on `scripts` (the plugin's script client over the same store; `redis` itself when
 * left out).
 */
export function compileStrategies(
  config: CompiledConfig,
  redis: Redis,
  hasherFor: (header: string) => HeaderValueHasher,
  contentApiPrefixes?: readonly string[],
  scripts: LibraryScriptClient = redis,
): CompiledRule[] {
  return config.rules.map((rule) => asConfigError(`strategy[${rule.index}]`, () => compileStrategy(rule, redis, hasherFor, contentApiPrefixes, scripts)));
}
