// What the admin usage view shows: every configured strategy with the callers currently holding a
// counter (found by SCAN in bounded batches, never KEYS), and resetting one caller of one strategy.
import type { Redis } from '@upstash/redis';
import type { RateLimitConfig, StrategyConfig } from '../config/schema';
import { readCounters } from './counters';
import { escapeGlob, identifierOfKey, isWindowed, keyMethods, keyStem } from './store-keys';
import { readAnalytics } from './analytics';
import type { CallerCounter, LimiterAlgorithm, StrategyUsage, UsageReport } from './usage-types';

export interface UsageLimits {
  /** Most callers listed per strategy (the total is still reported). */
  maxCallers: number;
  /** Keys asked for per SCAN call. */
  scanBatch: number;
  /** Most keys looked at per strategy; past it the total is a lower bound (`totalExact: false`). */
  maxScannedKeys: number;
}

export const DEFAULT_USAGE_LIMITS: UsageLimits = { maxCallers: 100, scanBatch: 500, maxScannedKeys: 50_000 };

interface FoundCaller {
  identifier: string;
  method: string;
  stem: string;
}

/** Every caller with a counter for one strategy, scanning at most `maxScannedKeys` keys. */
async function findCallers(redis: Redis, prefix: string, strategy: StrategyConfig, limits: UsageLimits): Promise<{ callers: FoundCaller[]; exact: boolean }> {
  const found = new Map<string, FoundCaller>();
  const windowed = isWindowed(strategy);
  let scanned = 0;
  let exact = true;
  for (const method of keyMethods(strategy)) {
    const stem = keyStem(prefix, method, strategy.path);
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, { match: `${escapeGlob(stem)}*`, count: limits.scanBatch });
      cursor = String(next);
      scanned += keys.length;
      for (const key of keys) {
        const identifier = identifierOfKey(key, stem, windowed);
        if (identifier !== undefined) found.set(`${method} ${identifier}`, { identifier, method, stem });
      }
      if (scanned >= limits.maxScannedKeys && cursor !== '0') {
        exact = false;
        break;
      }
    } while (cursor !== '0');
  }
  return { callers: [...found.values()], exact };
}

function byMostLimited(a: CallerCounter, b: CallerCounter): number {
  if (a.blocked !== b.blocked) return a.blocked ? -1 : 1;
  return a.remaining - b.remaining || a.identifier.localeCompare(b.identifier);
}

async function strategyUsage(redis: Redis, config: RateLimitConfig, strategy: StrategyConfig, index: number, limits: UsageLimits, now: number): Promise<StrategyUsage> {
  const { callers, exact } = await findCallers(redis, config.prefix, strategy, limits);
  // Counters are read for a bounded number of callers; the rest only count towards the total.
  const counters = (await readCounters(redis, strategy, callers.slice(0, limits.maxCallers), now)).sort(byMostLimited);
  return {
    index,
    methods: keyMethods(strategy),
    path: strategy.path,
    // The schema only lets the three algorithms through.
    algorithm: strategy.limiter.algorithm as LimiterAlgorithm,
    tokens: strategy.limiter.tokens,
    window: strategy.limiter.window,
    ...(strategy.limiter.refillRate === undefined ? {} : { refillRate: strategy.limiter.refillRate }),
    identifierSource: strategy.identifierSource,
    debug: strategy.debug === true || strategy.debug === 'true',
    callers: counters,
    totalCallers: callers.length,
    totalExact: exact,
    blockedCallers: counters.filter((caller) => caller.blocked).length,
  };
}

export async function readUsage(redis: Redis, config: RateLimitConfig, limits: UsageLimits = DEFAULT_USAGE_LIMITS, now = Date.now()): Promise<UsageReport> {
  const strategies: StrategyUsage[] = [];
  // One strategy after another keeps the number of store calls in flight small.
  for (const [index, strategy] of config.strategy.entries()) strategies.push(await strategyUsage(redis, config, strategy, index, limits, now));
  return {
    enabled: config.enabled,
    prefix: config.prefix,
    analyticsEnabled: config.analytics,
    generatedAt: now,
    strategies,
    ...(config.analytics ? { analytics: await readAnalytics(redis, config.prefix, now) } : {}),
  };
}

/**
 * Deletes one caller's counters for one strategy (every method it keys, every window). The
 * identifier is escaped in the MATCH pattern, so `*` or `[` in it never reaches another caller.
 * Returns how many keys were deleted.
 */
export async function resetCaller(redis: Redis, config: RateLimitConfig, strategyIndex: number, identifier: string, scanBatch = DEFAULT_USAGE_LIMITS.scanBatch): Promise<number> {
  const strategy = config.strategy[strategyIndex];
  if (!strategy) throw new RangeError(`There is no strategy ${strategyIndex} (the config has ${config.strategy.length})`);
  let deleted = 0;
  for (const method of keyMethods(strategy)) {
    const key = keyStem(config.prefix, method, strategy.path) + identifier;
    const keys = [key];
    let cursor = '0';
    do {
      const [next, found] = await redis.scan(cursor, { match: `${escapeGlob(key)}:*`, count: scanBatch });
      cursor = String(next);
      keys.push(...found);
    } while (cursor !== '0');
    deleted += await redis.del(...keys);
  }
  return deleted;
}
