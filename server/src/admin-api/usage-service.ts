// What the admin usage view shows: every configured strategy with the callers currently holding a
// counter, and resetting one caller of one strategy. The callers of all strategies are found in one
// bounded SCAN pass over the plugin's prefix (never KEYS, never a pass per strategy or method):
// each key is split by the one key layout (http/keys.ts) and handed to the strategy it belongs to.
import type { Redis } from '@upstash/redis';
import type { RateLimitConfig, StrategyConfig } from '../config/schema';
import { escapeGlob, parseKey, shapeOf, StrategyKeys } from '../http/keys';
import { readAnalytics } from './analytics';
import { readCounters, type FoundCaller } from './counters';
import { storeInUse } from '../limiter/store-in-use';
import type { CallerCounter, FailOpenReport, LimiterAlgorithm, StrategyUsage, UsageReport } from './usage-types';

export interface UsageLimits {
  /** Most callers listed per strategy (the total is still reported). */
  maxCallers: number;
  /** Keys asked for per SCAN call: the store walks this many keys per command, matching or not. */
  scanBatch: number;
  /** Most of the plugin's keys looked at; past it the totals are lower bounds (`totalExact: false`). */
  maxScannedKeys: number;
  /** Most SCAN calls per report (a keyspace of scanBatch x maxScanCalls keys is walked in full). */
  maxScanCalls: number;
}

export const DEFAULT_USAGE_LIMITS: UsageLimits = { maxCallers: 100, scanBatch: 5000, maxScannedKeys: 50_000, maxScanCalls: 400 };

interface FoundCallers {
  /** Per strategy, in config order. */
  readonly callers: FoundCaller[][];
  readonly exact: boolean;
}

/** Every caller with a counter, for every strategy at once, in one bounded pass. */
async function findCallers(redis: Redis, prefix: string, keysets: readonly StrategyKeys[], limits: UsageLimits): Promise<FoundCallers> {
  const owner = new Map<string, number>();
  keysets.forEach((keys, index) => keys.methods.forEach((method) => owner.set(keys.shape(method), index)));
  const found = keysets.map(() => new Map<string, FoundCaller>());
  let scanned = 0;
  let calls = 0;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, { match: `${escapeGlob(prefix)}:*`, count: limits.scanBatch });
    cursor = String(next);
    calls += 1;
    scanned += keys.length;
    for (const key of keys) {
      const parsed = parseKey(prefix, key);
      const index = parsed && owner.get(shapeOf(parsed));
      if (parsed === undefined || index === undefined || !keysets[index].owns(parsed)) continue;
      const { method, identifier } = parsed;
      found[index].set(`${method} ${identifier}`, { identifier, method, key: keysets[index].storeKey(method, identifier) });
    }
  } while (cursor !== '0' && scanned < limits.maxScannedKeys && calls < limits.maxScanCalls);
  return { callers: found.map((callers) => [...callers.values()]), exact: cursor === '0' };
}

function byMostLimited(a: CallerCounter, b: CallerCounter): number {
  if (a.blocked !== b.blocked) return a.blocked ? -1 : 1;
  return a.remaining - b.remaining || a.identifier.localeCompare(b.identifier);
}

async function strategyUsage(redis: Redis, strategy: StrategyConfig, keys: StrategyKeys, index: number, callers: FoundCaller[], exact: boolean, limits: UsageLimits, now: number): Promise<StrategyUsage> {
  // Counters are read for a bounded number of callers; the rest only count towards the total.
  const counters = (await readCounters(redis, strategy, callers.slice(0, limits.maxCallers), now)).sort(byMostLimited);
  return {
    index,
    methods: [...keys.methods],
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

/** What an instance whose limiter has not failed open (or is not running) reports. */
export const NO_FAIL_OPEN: FailOpenReport = { admitted: 0, outage: false };

export async function readUsage(
  redis: Redis,
  config: RateLimitConfig,
  limits: UsageLimits = DEFAULT_USAGE_LIMITS,
  now = Date.now(),
  failOpen: FailOpenReport = NO_FAIL_OPEN,
): Promise<UsageReport> {
  const keysets = config.strategy.map((strategy) => new StrategyKeys(config.prefix, strategy));
  // A disabled plugin uses no store: its strategies are listed with no callers.
  const { callers, exact } = config.enabled ? await findCallers(redis, config.prefix, keysets, limits) : { callers: keysets.map(() => []), exact: true };
  const strategies = await Promise.all(config.strategy.map((strategy, index) => strategyUsage(redis, strategy, keysets[index], index, callers[index], exact, limits, now)));
  return {
    enabled: config.enabled,
    store: storeInUse(config),
    prefix: config.prefix,
    analyticsEnabled: config.analytics,
    generatedAt: now,
    strategies,
    failOpen,
    ...(config.analytics && config.enabled ? { analytics: await readAnalytics(redis, config.prefix, now) } : {}),
  };
}

/**
 * Deletes one caller's counters for one strategy (every method it keys, every window), after
 * checking that each key found belongs to that strategy and caller. The identifier is escaped in
 * the MATCH pattern, so `*` or `[` in it never reaches another caller. Returns how many keys were deleted.
 */
export async function resetCaller(redis: Redis, config: RateLimitConfig, strategyIndex: number, identifier: string, scanBatch = DEFAULT_USAGE_LIMITS.scanBatch): Promise<number> {
  const strategy = config.strategy[strategyIndex];
  if (!strategy) throw new RangeError(`There is no strategy ${strategyIndex} (the config has ${config.strategy.length})`);
  const keys = new StrategyKeys(config.prefix, strategy);
  const owned: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, { match: keys.callerPattern(identifier), count: scanBatch });
    cursor = String(next);
    for (const key of found) {
      const parsed = parseKey(config.prefix, key);
      if (parsed !== undefined && parsed.identifier === identifier && keys.owns(parsed)) owned.push(key);
    }
  } while (cursor !== '0');
  return owned.length === 0 ? 0 : redis.del(...owned);
}
