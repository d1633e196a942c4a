// The rate-limit middleware. Per request, one straight line: match -> identify (verifying the
// credential once when a `user` strategy matches) -> limit (every matching strategy at once, one
// store round trip) -> headers -> next, or 429 after giving the admitting strategies their tokens
// back. Blocked callers are answered from memory until the algorithm could admit them again (see
// limiter/reopening.ts); store failures fail open (default, counted), closed (503) or to per-instance
// limits in memory (local). Shadow strategies are counted in the same round trip and refunded by the
// same rule, but never refuse, set no header and are never remembered as blocked: their would-be
// refusals are logged (shadow-log.ts) and, with analytics, recorded (decision-events.ts).
import type { Redis } from '@upstash/redis';
import type { Context, Next } from 'koa';
import { RateLimitConfigError } from '../config/errors';
import type { RateLimitConfig } from '../config/schema';
import { BlockedCache } from '../limiter/blocked-cache';
import { MemoryLimiter } from '../limiter/memory-limiter';
import { StoreHealth } from '../limiter/store-health';
import { TokenRefunds } from '../limiter/token-refunds';
import { compileAllowList, type AllowList } from './allow-list';
import { DecisionEvents } from './decision-events';
import { ShadowLog } from './shadow-log';
import type { HeaderValueHasher } from './header-privacy';
import type { CompiledRule } from './compile-strategies';
import { setRateLimitHeaders, setRetryAfter, type LimitState } from './headers';
import { compileIpIdentity, verifiedIdentity, type IpIdentity } from './identify';
import { STORE_UNAVAILABLE, TOO_MANY_REQUESTS, type RefusalResponder } from './refusal';
import { USER_SOURCE, type CallerVerifier, type VerifiedCaller } from './verified-caller';

export { jsonRefusal, type RefusalResponder } from './refusal';

export interface RateLimitLogger {
  info(message: string): void;
  warn(message: string): void;
}

interface Check {
  readonly rule: CompiledRule;
  /** What the limiter counts: `<method>:<route>:<identifier>:<limiter>` (see config/keys.ts). */
  readonly limiterKey: string;
  /** The method and the caller in the keys (debug lines, the sliding window's reopening). */
  readonly method: string;
  readonly caller: string;
}

interface Match {
  readonly rule: CompiledRule;
  /** The method in the rule's keys. */
  readonly method: string;
}

interface Outcome {
  readonly check: Check;
  readonly success: boolean;
  readonly limit: number;
  readonly remaining: number;
  readonly reset: number;
  /** Who decided: the store, the block cache (a remembered refusal), or memory while the store is away (failureMode 'local'). */
  readonly from: 'store' | 'block cache' | 'memory';
}

/** What a debug line adds about who decided. */
const FROM_NOTE: Record<Outcome['from'], string> = { store: '', 'block cache': ' (from the block cache)', memory: ' (in memory: the store is away)' };

/** Callers an instance limits in memory per strategy while the store is away (failureMode 'local'). */
const MEMORY_LIMITER_CAPACITY = 100_000;

/** What the middleware returns once it has answered by itself: one settled promise, shared. */
const ANSWERED: Promise<void> = Promise.resolve();

/** The block cache's key: one strategy, one caller on it. */
const blockKey = (strategyIndex: number, limiterKey: string): string => `${strategyIndex}\n${limiterKey}`;

export class RateLimiter {
  private readonly blocked: BlockedCache;
  private readonly allowed: AllowList;
  private readonly refunds: TokenRefunds;
  /** Whether each rule (by index) identifies callers by their verified principal (`user`). */
  private readonly userRules: readonly boolean[];
  /** With `analytics`, each strategy's decisions (decision-events.ts). */
  private readonly events: DecisionEvents | undefined;
  /** With failureMode 'local', one in-memory limiter per rule, used while the store is away. */
  private readonly memory: readonly MemoryLimiter[] | undefined;
  /** Outages and the requests failing open let through, for the logs and the usage report. */
  readonly health: StoreHealth;
  private readonly ipIdentity: (ctx: Context) => IpIdentity;
  private readonly shadowLog: ShadowLog;

  constructor(
    private readonly config: RateLimitConfig,
    private readonly rules: readonly CompiledRule[],
    private readonly logger: RateLimitLogger,
    private readonly refuse: RefusalResponder,
    readonly redis: Redis,
    hasherFor: (header: string) => HeaderValueHasher,
    private readonly verifyCaller?: CallerVerifier,
  ) {
    this.blocked = new BlockedCache(config.blockedCacheSize);
    this.health = new StoreHealth(logger, config.failureMode);
    this.memory = config.failureMode === 'local' ? rules.map((rule) => new MemoryLimiter(rule.limit, MEMORY_LIMITER_CAPACITY)) : undefined;
    this.allowed = compileAllowList(config.allowList, hasherFor);
    this.ipIdentity = compileIpIdentity(config.ipv6Subnet);
    this.userRules = rules.map((rule) => rule.strategy.identifierSource === USER_SOURCE);
    const unverifiable = verifyCaller ? [] : rules.filter((rule) => this.userRules[rule.index]);
    if (unverifiable.length > 0) {
      throw new RateLimitConfigError(
        unverifiable.map((rule) => `strategy[${rule.index}].identifierSource: "user" needs a verifier of users and API tokens: the Strapi plugin has one; plain Koa apps pass the verifyCaller option`),
      );
    }
    this.refunds = new TokenRefunds(rules.map((rule) => rule.limiter));
    this.events = config.analytics ? new DecisionEvents(redis, config.prefix) : undefined;
    this.shadowLog = new ShadowLog(logger);
  }

  /**
   * Synchronous up to the verdict when it needs no store: a caller in the block cache is refused
   * without an async step of the plugin's own. Like an async function, it never throws: a failure
   * is the returned promise's rejection.
   */
  readonly middleware = (ctx: Context, next: Next): Promise<void> => {
    try {
      const matched = this.matchingRules(ctx);
      if (matched.length === 0) return next();
      // The principal of `user` strategies is verified once per request, and only when one matches.
      if (matched.some((match) => this.userRules[match.rule.index])) return this.verifiedCaller(ctx).then((verified) => this.decide(ctx, next, matched, verified));
      return this.decide(ctx, next, matched, undefined);
    } catch (failure) {
      return Promise.reject(failure);
    }
  };

  private decide(ctx: Context, next: Next, matched: readonly Match[], verified: VerifiedCaller | undefined): Promise<void> {
    const checks = this.checksFor(ctx, matched, verified);
    if (checks.length === 0) return next();
    const now = Date.now();
    // A caller blocked by any strategy is refused from memory: no store call, no token spent elsewhere.
    const cached = this.cachedRefusal(checks, now);
    return cached ? this.answer(ctx, next, [cached], now) : this.decideInStore(ctx, next, checks, now);
  }

  private async decideInStore(ctx: Context, next: Next, checks: readonly Check[], now: number): Promise<void> {
    let outcomes: Outcome[];
    try {
      // One strategy (the usual case) skips Promise.all's extra promise and array.
      outcomes = checks.length === 1 ? [await this.limit(checks[0])] : await Promise.all(checks.map((check) => this.limit(check)));
      this.health.recovered();
    } catch (failure) {
      this.health.failed(failure);
      // Closed refuses what an enforcing strategy covers; shadow strategies alone refuse nothing.
      if (this.config.failureMode === 'closed' && checks.some((check) => check.rule.mode === 'enforce')) return this.refuse(ctx, { status: 503, message: STORE_UNAVAILABLE });
      const memory = this.memory;
      if (!memory) return next();
      outcomes = checks.map((check) => ({ check, ...memory[check.rule.index].limit(check.limiterKey, now), from: 'memory' as const }));
    }
    return this.answer(ctx, next, outcomes, now);
  }

  /** The headers of the tightest enforcing outcome, then next, or a 429 after giving the admitting strategies their tokens back. */
  private answer(ctx: Context, next: Next, outcomes: readonly Outcome[], now: number): Promise<void> {
    // One pass over the enforcing outcomes: the tightest limit for the headers, and the latest reset among refusals.
    let tightest: Outcome | undefined;
    let retryAt = 0;
    for (const outcome of outcomes) {
      if (outcome.check.rule.debug) this.logDebug(ctx, outcome);
      if (outcome.check.rule.mode === 'shadow') {
        if (!outcome.success) this.shadowLog.wouldBlock(ctx.method, ctx.path, outcome, now);
        continue;
      }
      if (tightest === undefined || outcome.remaining < tightest.remaining || (!outcome.success && tightest.success)) tightest = outcome;
      if (!outcome.success && outcome.reset > retryAt) retryAt = outcome.reset;
    }
    void this.events?.record(outcomes, retryAt === 0, now);
    // Only shadow strategies matched: no limit applies, so no rate-limit headers either.
    if (tightest === undefined) return next();
    const state: LimitState = { limit: tightest.limit, remaining: tightest.remaining, reset: tightest.reset, windowSeconds: tightest.check.rule.windowSeconds };
    setRateLimitHeaders(ctx, this.config.headers, state, now);
    if (retryAt === 0) return next();
    setRetryAfter(ctx, retryAt, now);
    const refusal = { status: 429, message: TOO_MANY_REQUESTS, limit: state.limit, remaining: state.remaining, reset: retryAt } as const;
    // A refusal consumes nothing: the strategies that admitted the request get their token back.
    // (A lone outcome that refuses took nothing; a refusal from the block cache is always alone.)
    const taken = outcomes.length === 1 ? [] : outcomes.filter((outcome) => outcome.success && outcome.from === 'store');
    if (taken.length === 0) {
      this.refuse(ctx, refusal);
      return ANSWERED;
    }
    return this.refunds.giveBack(taken.map(({ check, reset }) => ({ strategyIndex: check.rule.index, limiterKey: check.limiterKey, reset }))).then(() => this.refuse(ctx, refusal));
  }

  private matchingRules(ctx: Context): Match[] {
    // Raw, as the router sees it: see match.ts.
    const path = ctx.path;
    const matched: Match[] = [];
    for (const rule of this.rules) {
      const method = rule.keyMethod(ctx.method);
      if (method !== undefined && rule.matches(path)) matched.push({ rule, method });
    }
    return matched;
  }

  private checksFor(ctx: Context, matched: readonly Match[], verified: VerifiedCaller | undefined): Check[] {
    const checks: Check[] = [];
    let ip: IpIdentity | undefined;
    const byIp = (): IpIdentity => (ip ??= this.ipIdentity(ctx));
    for (const { rule, method } of matched) {
      const identity = verified && this.userRules[rule.index] ? verifiedIdentity(verified) : rule.identify(ctx, byIp);
      if (this.allowed(identity)) continue;
      const limiterKey = rule.keys.limiterKey(method, identity.id);
      checks.push({ rule, limiterKey, method, caller: identity.id });
    }
    return checks;
  }

  /** A verifier that fails (its database is down) leaves the request limited by IP, never unlimited. */
  private async verifiedCaller(ctx: Context): Promise<VerifiedCaller | undefined> {
    try {
      return await this.verifyCaller?.(ctx);
    } catch {
      return undefined;
    }
  }

  /**
   * Forgets a caller the admin API has just reset, so it is not refused from memory until its old
   * reset time. Other instances sharing the store keep their own memory until then.
   */
  readonly forgetBlocked = (strategyIndex: number, caller: string): void => {
    const rule = this.rules[strategyIndex];
    if (!rule) return;
    for (const method of rule.methods) this.blocked.forget(blockKey(strategyIndex, rule.keys.limiterKey(method, caller)));
  };

  /** The block that lasts longest among the request's strategies, so Retry-After is not too early. */
  private cachedRefusal(checks: readonly Check[], now: number): Outcome | undefined {
    // Nobody blocked (the allowed path's usual state): no block keys to build.
    if (this.blocked.size === 0) return undefined;
    let longest: Check | undefined;
    let longestReset = 0;
    for (const check of checks) {
      const reset = this.blocked.blockedUntil(blockKey(check.rule.index, check.limiterKey), now);
      if (reset !== undefined && reset > longestReset) {
        longest = check;
        longestReset = reset;
      }
    }
    return longest && { check: longest, success: false, limit: longest.rule.strategy.limiter.tokens, remaining: 0, reset: longestReset, from: 'block cache' };
  }

  /** Not async: an admitted request (the usual case) costs one promise per strategy, the library's own. */
  private limit(check: Check): Promise<Outcome> {
    // The limiters keep no analytics of their own (decision-events.ts records), so `pending` is settled.
    return check.rule.limiter.limit(check.limiterKey).then((result) => {
      const outcome: Outcome = { check, success: result.success, limit: result.limit, remaining: Math.max(0, result.remaining), reset: result.reset, from: 'store' };
      // A shadow strategy refuses no one, so it is never remembered as blocked.
      return result.success || check.rule.mode === 'shadow' ? outcome : this.remembered(outcome);
    });
  }

  /** A refused caller is answered from memory until the algorithm could admit it again, and told to retry then. */
  private async remembered(outcome: Outcome): Promise<Outcome> {
    const { check } = outcome;
    const reopensAt = await check.rule.reopensAt(check.method, check.caller, outcome.reset);
    if (reopensAt === undefined) return outcome;
    this.blocked.block(blockKey(check.rule.index, check.limiterKey), reopensAt);
    return { ...outcome, reset: reopensAt };
  }

  private logDebug(ctx: Context, outcome: Outcome): void {
    const verdict = outcome.success ? 'allowed' : outcome.check.rule.mode === 'shadow' ? 'would be blocked (shadow)' : 'blocked';
    this.logger.info(
      `[ratelimit] ${ctx.method} ${ctx.path} -> strategy ${outcome.check.method} ${outcome.check.rule.strategy.path} ${outcome.check.caller}: ${verdict}, remaining ${outcome.remaining}/${outcome.limit}, reset in ${Math.max(0, Math.ceil((outcome.reset - Date.now()) / 1000))}s${FROM_NOTE[outcome.from]}`,
    );
  }
}
