// Compiles each configured strategy once into a rule: which methods and paths it covers, how it
// identifies callers and which limiter counts for it. Nothing here runs per request.
import type { Ratelimit } from '@upstash/ratelimit';
import type { Redis } from '@upstash/redis';
import { parseDuration } from '../config/duration';
import { RateLimitConfigError } from '../config/errors';
import { parsePathPattern, type PathPattern } from '../config/path-pattern';
import type { RateLimitConfig, StrategyConfig } from '../config/schema';
import { createLimiter } from '../limiter/create-limiter';
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

/** The schema has refused unparsable paths; a config that skipped it still fails as a config error. */
function pathPattern(path: string, index: number): PathPattern {
  const pattern = parsePathPattern(path);
  if (pattern.kind === 'invalid') throw new RateLimitConfigError([`strategy[${index}].path: ${pattern.problem}`]);
  return pattern;
}

export function compileStrategies(config: RateLimitConfig, redis: Redis, contentApiPrefixes?: readonly string[]): CompiledRule[] {
  return config.strategy.map((strategy, index) => ({
    index,
    strategy,
    keyMethod: compileMethods(strategy.methods),
    matches: compilePathMatcher(pathPattern(strategy.path, index), contentApiPrefixes),
    identify: compileIdentifier(strategy.identifierSource, config.ipv6Subnet),
    limiter: createLimiter(strategy, redis, { prefix: config.prefix, analytics: config.analytics }),
    debug: strategy.debug === true || strategy.debug === 'true',
    windowSeconds: Math.max(1, Math.round(parseDuration(strategy.limiter.window)!.milliseconds / 1000)),
  }));
}
