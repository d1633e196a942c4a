// Compiles each rule of a config once for the request path: which paths it covers, how it
// identifies callers and which limiters count for it: its own, and one per tier (docs/tiers.md),
// all on the same keys, so a tier changes a caller's limit and never its counter. Nothing here runs
// per request.
import type { Ratelimit } from '@upstash/ratelimit';
import type { Redis } from '@upstash/redis';
import { asConfigError } from '../config/errors';
import type { CompiledConfig, Limit, Rule } from '../config/rules';
import { DEFAULT_TIER, type CallerClass } from '../config/tiers';
import { createLimiter } from '../limiter/create-limiter';
import type { LibraryScriptClient } from '../limiter/script-client';
import { compileReopening, type Reopening } from '../limiter/reopening';
import type { HeaderValueHasher } from './header-privacy';
import { compileIdentifier, type IdentifierExtractor } from './identify';
import { compilePathMatcher, type PathMatcher } from './match';

/** One limit of a rule: its own `limiter`, or one of its tiers; all of a rule's count the same keys. */
export interface TierLimiter {
  /** The tier's name (`apiTokens.read-only`, `roles.partner`, `anonymous`), or `limiter` for the strategy's own. */
  readonly name: string;
  readonly limit: Limit;
  readonly limiter: Ratelimit;
  /** Whether the strategy's live limit replaces `limit.tokens`: for the strategy's own limiter only (docs/tiers.md). */
  readonly live: boolean;
}

export interface CompiledRule extends Rule {
  readonly matches: PathMatcher;
  readonly identify: IdentifierExtractor;
  /** The strategy's own limiter (`own.limiter`): callers no tier names, refunds of admin tools, the usage view. */
  readonly limiter: Ratelimit;
  /** The strategy's own limit, reading its live limit. */
  readonly own: TierLimiter;
  /** One limiter per tier, by the class of caller it applies to; empty without tiers. */
  readonly tierLimiters: ReadonlyMap<CallerClass, TierLimiter>;
  /** When a caller this rule refused could be admitted again: how long the block cache may answer for it. */
  readonly reopensAt: Reopening;
  /** The window in whole seconds (at least 1), for `RateLimit-Policy`. */
  readonly windowSeconds: number;
}

function compileStrategy(rule: Rule, redis: Redis, hasherFor: (header: string) => HeaderValueHasher, contentApiPrefixes: readonly string[] | undefined, scripts: LibraryScriptClient): CompiledRule {
  const own: TierLimiter = { name: DEFAULT_TIER, limit: rule.limit, limiter: asConfigError(`strategy[${rule.index}].limiter`, () => createLimiter(rule, scripts)), live: true };
  const tierLimiters = new Map<CallerClass, TierLimiter>();
  for (const [name, limit] of rule.tiers) {
    const limiter = asConfigError(`strategy[${rule.index}].tiers.${name}`, () => createLimiter({ limit, keys: rule.keys }, scripts, false));
    tierLimiters.set(name, { name, limit, limiter, live: false });
  }
  return {
    ...rule,
    // A GraphQL rule matches no path: the middleware charges it at the GraphQL endpoint (graphql/).
    matches: rule.path ? compilePathMatcher(rule.path, contentApiPrefixes) : () => false,
    identify: compileIdentifier(rule.strategy.identifierSource, hasherFor),
    limiter: own.limiter,
    own,
    tierLimiters,
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
