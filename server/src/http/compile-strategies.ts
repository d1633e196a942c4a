// Compiles each configured strategy once into a rule: which methods and paths it covers, how it
// identifies callers and which limiter counts for it. Nothing here runs per request.
import type { Ratelimit } from '@upstash/ratelimit';
import type { Redis } from '@upstash/redis';
import { DURATION_FORMAT, parseDuration } from '../config/duration';
import { asConfigError, RateLimitConfigError } from '../config/errors';
import { parsePathPattern } from '../config/path-pattern';
import type { RateLimitConfig, StrategyConfig } from '../config/schema';
import { createLimiter } from '../limiter/create-limiter';
import { compileReopening, type Reopening } from '../limiter/reopening';
import type { HeaderValueHasher } from './header-privacy';
import { compileIdentifier, type IdentifierExtractor } from './identify';
import { compilePathMatcher, type PathMatcher } from './match';

export interface CompiledRule {
  readonly index: number;
  readonly strategy: StrategyConfig;
  /** The method in the rule's keys for a request method, or undefined when the rule does not apply. */
  keyMethod(requestMethod: string): string | undefined;
  readonly matches: PathMatcher;
  readonly identify: IdentifierExtractor;
  readonly limiter: Ratelimit;
  /** When a caller this rule refused could be admitted again: how long the block cache may answer for it. */
  readonly reopensAt: Reopening;
  readonly debug: boolean;
  readonly windowSeconds: number;
}

function compileMethods(methods: readonly string[]): (requestMethod: string) => string | undefined {
  const upper = new Set(methods.map((method) => method.toUpperCase()));
  if (upper.has('ALL')) return () => 'ALL';
  // HEAD runs a GET route's handler, so it is counted as the GET it is.
  return (requestMethod) => {
    const method = requestMethod === 'HEAD' ? 'GET' : requestMethod;
    return upper.has(method) ? method : undefined;
  };
}

function compileStrategy(config: RateLimitConfig, strategy: StrategyConfig, index: number, redis: Redis, hasherFor: (header: string) => HeaderValueHasher, contentApiPrefixes: readonly string[] | undefined): CompiledRule {
  const field = `strategy[${index}]`;
  const pattern = parsePathPattern(strategy.path);
  if (pattern.kind === 'invalid') throw new RateLimitConfigError([`${field}.path: ${pattern.problem}`]);
  const window = parseDuration(strategy.limiter.window);
  if (!window) throw new RateLimitConfigError([`${field}.limiter.window: ${JSON.stringify(strategy.limiter.window)} is not ${DURATION_FORMAT}`]);
  return {
    index,
    strategy,
    keyMethod: compileMethods(strategy.methods),
    matches: compilePathMatcher(pattern, contentApiPrefixes),
    identify: compileIdentifier(strategy.identifierSource, config.ipv6Subnet, hasherFor),
    limiter: asConfigError(`${field}.limiter`, () => createLimiter(strategy, redis, { prefix: config.prefix, analytics: config.analytics })),
    reopensAt: compileReopening(strategy, redis, config.prefix),
    debug: strategy.debug === true || strategy.debug === 'true',
    windowSeconds: Math.max(1, Math.round(window.milliseconds / 1000)),
  };
}

/**
 * Compiles a validated config. Whatever still fails here (a config that bypassed the schema, a
 * limit the algorithms refuse) is a RateLimitConfigError naming the strategy's field. `hasherFor`
 * decides which header values are keyed by their HMAC (header-privacy.ts).
 */
export function compileStrategies(config: RateLimitConfig, redis: Redis, hasherFor: (header: string) => HeaderValueHasher, contentApiPrefixes?: readonly string[]): CompiledRule[] {
  return config.strategy.map((strategy, index) => asConfigError(`strategy[${index}]`, () => compileStrategy(config, strategy, index, redis, hasherFor, contentApiPrefixes)));
}
