// What the admin usage view shows: every configured strategy with the callers currently holding a
// counter, and resetting one caller of one strategy. The callers of all strategies are found in one
// bounded SCAN pass over the plugin's prefix (never KEYS, never a pass per strategy or method):
// each key is split by the one key layout (config/keys.ts) and handed to the rule it belongs to. A
// reset needs no SCAN: it deletes the keys the rule names for that caller, and nothing else. On a
// strategy with tiers (docs/tiers.md) each caller is shown in the tier this instance last saw it in,
// its counter read against that tier's limit; a caller not seen here, against the strategy's own.
// A caller with no token left is blocked only when it was refused (counters.ts), else at its limit.
import type { Redis } from '@upstash/redis';
import { eventsPrefix } from '../config/key-placement';
import type { CompiledConfig, Rule } from '../config/rules';
import { escapeGlob, parseKey, shapeOf } from '../config/keys';
import { readAnalytics, readWouldBlock } from './analytics';
import { readCounters, type CounterLimit, type FoundCaller } from './counters';
import { DEFAULT_TIER, type CallerClass } from '../config/tiers';
import type { SeenClass } from '../http/callers-seen';
import { storeInUse } from '../store/store-in-use';
import { effectiveTokens, readLiveTokens } from './live-limits';
import { ruleAt } from './strategy-index';
import { CONFIG_ONLY, RUNTIME_CHANGEABLE, type CallerCounter, type ConfiguredReport, type ConfiguredStrategy, type FailOpenReport, type LiveTokens, type StrategyUsage, type TierUsage, type UsageReport } from './usage-types';

/** What the instance serving the report knows of its callers, beside the store. */
export interface InstanceView {
  /** A caller's class (http/callers-seen.ts), or undefined. */
  classOf(identifier: string, now: number): SeenClass | undefined;
  /** Whether it refused the caller on a strategy and method until a reset still to come (its block cache). */
  refusedHere(strategyIndex: number, method: string, identifier: string, now: number): boolean;
}

const NOTHING_SEEN: InstanceView = { classOf: () => undefined, refusedHere: () => false };

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

/** Every caller with a counter, for every rule at once, in one bounded pass. */
async function findCallers(redis: Redis, prefix: string, rules: readonly Rule[], limits: UsageLimits): Promise<FoundCallers> {
  const owner = new Map<string, Rule>();
  for (const rule of rules) for (const method of rule.methods) owner.set(rule.keys.shape(method), rule);
  const found = rules.map(() => new Map<string, FoundCaller>());
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
      const rule = parsed && owner.get(shapeOf(parsed));
      if (parsed === undefined || rule === undefined || !rule.keys.owns(parsed)) continue;
      const { method, identifier } = parsed;
      found[rule.index].set(`${method} ${identifier}`, { identifier, method });
    }
  } while (cursor !== '0' && scanned < limits.maxScannedKeys && calls < limits.maxScanCalls);
  return { callers: found.map((callers) => [...callers.values()]), exact: cursor === '0' };
}

function byMostLimited(a: CallerCounter, b: CallerCounter): number {
  if (a.blocked !== b.blocked) return a.blocked ? -1 : 1;
  return a.remaining - b.remaining || a.identifier.localeCompare(b.identifier);
}

/** A caller's tier on `rule`: its class when the rule names that tier, else the rule's own limiter; undefined when not known. */
function tierNameOf(rule: Rule, seen: SeenClass | undefined): CallerClass | typeof DEFAULT_TIER | undefined {
  if (seen === undefined) return undefined;
  return seen !== DEFAULT_TIER && rule.tiers.has(seen) ? seen : DEFAULT_TIER;
}

const tierUsage = (rule: Rule): TierUsage[] =>
  [...rule.tiers].map(([name, limit]) => ({ name, tokens: limit.tokens, ...(rule.limit.algorithm === 'token-bucket' ? { refillRate: limit.refillRate } : {}) }));

interface RuleState {
  readonly callers: FoundCaller[];
  readonly exact: boolean;
  readonly liveTokens: LiveTokens;
  readonly wouldBlock: number | undefined;
}

function configuredStrategy(rule: Rule): ConfiguredStrategy {
  const { strategy } = rule;
  return {
    index: rule.index,
    methods: [...rule.methods],
    path: rule.route,
    algorithm: rule.limit.algorithm,
    tokens: strategy.limiter.tokens,
    window: strategy.limiter.window,
    ...(strategy.limiter.refillRate === undefined ? {} : { refillRate: strategy.limiter.refillRate }),
    identifierSource: strategy.identifierSource,
    ...(rule.tiers.size > 0 ? { tiers: tierUsage(rule) } : {}),
    debug: rule.debug,
    mode: rule.mode,
    runtimeChangeable: [...RUNTIME_CHANGEABLE],
    configOnly: [...CONFIG_ONLY],
  };
}

async function strategyUsage(redis: Redis, rule: Rule, { callers, exact, liveTokens, wouldBlock }: RuleState, limits: UsageLimits, now: number, { classOf, refusedHere }: InstanceView): Promise<StrategyUsage> {
  const own: CounterLimit = { tokens: effectiveTokens(rule, liveTokens), refillRate: rule.limit.refillRate };
  const tiered = rule.tiers.size > 0;
  const tierOf = (identifier: string) => (tiered ? tierNameOf(rule, classOf(identifier, now)) : undefined);
  const limitOf = (identifier: string): CounterLimit => {
    const tier = tierOf(identifier);
    return (tier !== undefined && tier !== DEFAULT_TIER && rule.tiers.get(tier)) || own;
  };
  // Counters are read for a bounded number of callers; the rest only count towards the total.
  const read = (await readCounters(redis, rule, callers.slice(0, limits.maxCallers), now, limitOf)).map((counter) => (counter.remaining === 0 && !counter.blocked && refusedHere(rule.index, counter.method, counter.identifier, now) ? { ...counter, blocked: true } : counter));
  const counters = (tiered ? read.map((counter) => withTier(counter, tierOf(counter.identifier))) : read).sort(byMostLimited);
  return {
    ...configuredStrategy(rule),
    liveTokens,
    ...(wouldBlock === undefined ? {} : { wouldBlock }),
    callers: counters,
    totalCallers: callers.length,
    totalExact: exact,
    blockedCallers: counters.filter((caller) => caller.blocked).length,
  };
}

/** What an instance whose limiter has not failed open (or is not running) reports. */
export const NO_FAIL_OPEN: FailOpenReport = { admitted: 0, outage: false };

const withTier = (counter: CallerCounter, tier: string | undefined): CallerCounter => (tier === undefined ? counter : { ...counter, tier });

/** The part of the report that needs no store: what the page shows while the store cannot be reached. */
export function configuredReport(config: CompiledConfig, now = Date.now(), failOpen: FailOpenReport = NO_FAIL_OPEN): ConfiguredReport {
  return {
    enabled: config.enabled,
    store: storeInUse(config),
    prefix: config.prefix,
    analyticsEnabled: config.analytics,
    generatedAt: now,
    strategies: config.rules.map(configuredStrategy),
    failOpen,
  };
}

export async function readUsage(
  redis: Redis,
  config: CompiledConfig,
  limits: UsageLimits = DEFAULT_USAGE_LIMITS,
  now = Date.now(),
  failOpen: FailOpenReport = NO_FAIL_OPEN,
  seen: InstanceView = NOTHING_SEEN,
): Promise<UsageReport> {
  // A disabled plugin uses no store: its strategies are listed with no callers.
  const analyticsRead = config.analytics && config.enabled;
  const [{ callers, exact }, wouldBlock, live] = await Promise.all([
    config.enabled ? findCallers(redis, config.prefix, config.rules, limits) : { callers: config.rules.map((): FoundCaller[] => []), exact: true },
    analyticsRead ? readWouldBlock(redis, eventsPrefix(config.prefix, config.placement), config.rules, now) : [],
    config.enabled ? readLiveTokens(redis, config.rules) : config.rules.map((): LiveTokens => null),
  ]);
  const strategies = await Promise.all(
    config.rules.map((rule) => strategyUsage(redis, rule, { callers: callers[rule.index], exact, liveTokens: live[rule.index], wouldBlock: wouldBlock[rule.index] }, limits, now, seen)),
  );
  return {
    ...configuredReport(config, now, failOpen),
    strategies,
    ...(analyticsRead ? { analytics: await readAnalytics(redis, eventsPrefix(config.prefix, config.placement), config.rules, now) } : {}),
  };
}

/**
 * Deletes one caller's counters on one strategy: for every method the rule keys, the keys its
 * algorithm reads now (config/keys.ts), named exactly, so no other caller or strategy is reached
 * whatever the identifier holds, and no SCAN walks the keyspace. Older window keys, which the
 * algorithm no longer reads, expire on their own. Returns how many keys were deleted.
 */
export async function resetCaller(redis: Redis, config: CompiledConfig, strategyIndex: number, identifier: string, now = Date.now()): Promise<number> {
  const rule = ruleAt(config.rules, strategyIndex);
  const keys = rule.methods.flatMap((method) => rule.keys.counterKeys(method, identifier, now));
  return redis.del(...keys);
}
