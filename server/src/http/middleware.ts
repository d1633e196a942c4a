// The rate-limit middleware. Per request, one straight line: match -> identify (verifying the
// credential once when a `user` strategy matches) -> limit (every matching strategy at once, one
// store round trip) -> headers -> next, or 429 after giving the admitting strategies their tokens
// back. Blocked callers are answered from memory until the algorithm could admit them again (see
// limiter/reopening.ts); store failures fail open (default, counted), closed (503) or to per-instance
// limits in memory (local). Shadow strategies are counted in the same round trip and refunded by the
// same rule, but never refuse, set no header and are never remembered as blocked: their would-be
// refusals are logged (shadow-log.ts) and, with analytics, recorded (decision-events.ts). A live limit
// set from the admin panel arrives with each store answer (`result.limit`); what is decided without
// the store uses the last one seen (limiter/last-seen-limits.ts), and window-algorithm refusals are
// held in memory at most `blockedCacheMaxMs`, so a raised limit reaches every instance within it.
// With the deny list on, the request's members (deny/deny-members.ts) are checked in memory first,
// then in the store in the same round trip as the limits; a denied caller gets 403 with no headers,
// and the tokens its checks took are given back. A `user` strategy with tiers (docs/tiers.md) counts
// each caller on the same keys with the limiter of its tier (caller-tier.ts): everything above then
// works per check with that tier's limit; only the strategy's own limiter reads its live limit.
// A strategy keying a header's values by their HMAC waits for the deployment's key (header-hash-key.ts)
// when it is not read yet: until the store gives it, its requests get the failure mode as in an
// outage (`local` counts them in memory under a key of this instance's own, which never leaves it).
// At the GraphQL endpoint, GraphQL strategies (docs/graphql.md) take what the request's operations
// run (graphql-endpoint.ts says how the request gets there): each check carries a `rate` (its count
// or cost), passed to @upstash/ratelimit's `rate`; a check refuses a request whole, taking nothing
// (limiter/charges.ts), and a refusal gives back every token the admitting checks
// took; the block cache answers only requests at least as large as the one refused.
import type { Redis } from '@upstash/redis';
import type { Context, Next } from 'koa';
import { RateLimitConfigError } from '../config/errors';
import type { CompiledConfig } from '../config/rules';
import { eventsPrefix } from '../config/key-placement';
import { BlockedCache } from '../limiter/blocked-cache';
import { ForeignLiveLimitError, ForeignLiveLimitWarnings, invalidLimitAnswer, scriptFailure } from '../limiter/foreign-live-limit';
import { isValidLimit } from '../config/bounds';
import { LastSeenLimits } from '../limiter/last-seen-limits';
import { MemoryLimiter } from '../limiter/memory-limiter';
import { StoreHealth } from '../limiter/store-health';
import { storeNoun } from '../store/store-in-use';
import type { ScriptClient } from '../store/script-client';
import { giveBack, type TakenToken } from '../limiter/token-refunds';
import { DenyCheck } from '../deny/deny-check';
import { ExpiredEntrySweeps } from '../deny/expired-entry-sweeps';
import { denyListKeys, identityMember, ipMembers } from '../deny/deny-members';
import { compileAllowList, type AllowList } from './allow-list';
import { DecisionEvents } from './decision-events';
import { ShadowLog } from './shadow-log';
import type { HeaderPrivacy } from './header-privacy';
import type { CompiledRule, TierLimiter } from './compile-strategies';
import { callerClass, tierFor } from './caller-tier';
import { CallersSeen } from './callers-seen';
import { DEFAULT_TIER } from '../config/tiers';
import { setRateLimitHeaders, setRetryAfter, type LimitState } from './headers';
import { compileIpIdentity, verifiedIdentity, type IpIdentity } from './identify';
import { ANSWERED, DENIED, STORE_UNAVAILABLE, TOO_MANY_REQUESTS, type Refusal, type RefusalResponder } from './refusal';
import { USER_SOURCE, type CallerVerifier, type VerifiedCaller } from './verified-caller';
import type { GraphqlLimits } from '../graphql/graphql-limits';
import { GraphqlEndpoint } from './graphql-endpoint';
import { Check, type Match, type Outcome } from './request-checks';

export { jsonRefusal, type RefusalResponder } from './refusal';

export interface RateLimitLogger {
  info(message: string): void;
  warn(message: string): void;
  /** Lines that need an operator (a header hash key lost from the store); warn when absent. */
  error?(message: string): void;
}

/** What a debug line adds about who decided. */
const FROM_NOTE: Record<Outcome['from'], string> = { store: '', 'block cache': ' (from the block cache)', memory: ' (in memory: the store is away)' };

/** Callers an instance limits in memory per strategy while the store is away (failureMode 'local'). */
const MEMORY_LIMITER_CAPACITY = 100_000;

/** A handler for a promise whose failure is handled where it is awaited: made once, not per request. */
const ignoreFailure = (): undefined => undefined;

/** The outcomes among `pending` that the store answered (none when there were none to wait for). */
async function answeredOutcomes(pending: ReadonlyArray<Promise<Outcome>> | undefined): Promise<Outcome[]> {
  if (!pending) return [];
  const settled = await Promise.allSettled(pending);
  return settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
}

/** The deny check of a config with `denyList` on; the timed entries it meets past their end are swept off the request path. */
function denyCheckOf(config: CompiledConfig, scripts: ScriptClient, redis: Redis): DenyCheck {
  const keys = denyListKeys(config.prefix, config.placement);
  const sweeps = new ExpiredEntrySweeps(redis, keys);
  return new DenyCheck(scripts, keys, config.denyCacheMs, config.blockedCacheSize, () => sweeps.met());
}

const takenToken = ({ check, reset }: Outcome): TakenToken => ({ limiter: check.tier.limiter, limiterKey: check.limiterKey, reset, tokens: check.rate });

export class RateLimiter {
  private readonly blocked: BlockedCache;
  /** Callers never limited (nor checked against the deny list). */
  readonly allowed: AllowList;
  /** Whether each rule (by index) identifies callers by their verified principal (`user`). */
  private readonly userRules: readonly boolean[];
  /** Whether each rule (by index) keys callers by the HMAC of a header's value, which needs the deployment's key. */
  private readonly hashingRules: readonly boolean[];
  /** With `analytics`, each strategy's decisions (decision-events.ts). */
  private readonly events: DecisionEvents | undefined;
  /** With failureMode 'local', one in-memory limiter per rule, used while the store is away. */
  private readonly memory: readonly MemoryLimiter[] | undefined;
  /** Outages and the requests failing open let through, for the logs and the usage report. */
  readonly health: StoreHealth;
  private readonly ipIdentity: (ctx: Context) => IpIdentity;
  private readonly shadowLog: ShadowLog;
  /** Each rule's effective limit in the store's latest answer (a live limit, else the configured tokens). */
  private readonly lastLimits: LastSeenLimits;
  /** With `denyList` on, the deny check and its per-instance cache of hits. */
  readonly denyList: DenyCheck | undefined;
  /** Strategies whose live key holds a value that is no limit, warned about once each. */
  private readonly foreignLimits: ForeignLiveLimitWarnings;
  /** The class each caller of a strategy with tiers was last seen with, for the usage view. */
  readonly callersSeen = new CallersSeen();
  /** With GraphQL strategies, what happens at their endpoint. */
  private readonly endpoint: GraphqlEndpoint | undefined;

  constructor(
    private readonly config: CompiledConfig,
    private readonly rules: readonly CompiledRule[],
    private readonly logger: RateLimitLogger,
    private readonly refuse: RefusalResponder,
    readonly redis: Redis,
    scripts: ScriptClient,
    private readonly privacy: HeaderPrivacy,
    private readonly verifyCaller?: CallerVerifier,
    /** With GraphQL strategies: where they count and what a request takes (graphql/graphql-limits.ts). */
    graphql?: GraphqlLimits,
  ) {
    this.blocked = new BlockedCache(config.blockedCacheSize);
    this.health = new StoreHealth(logger, config.failureMode, storeNoun(config), () => privacy.key.storeCameBack());
    this.memory = config.failureMode === 'local' ? rules.map((rule) => new MemoryLimiter(rule.limit, MEMORY_LIMITER_CAPACITY)) : undefined;
    this.allowed = compileAllowList(config.allowList, privacy.hasherFor, () => privacy.key.generation);
    this.ipIdentity = compileIpIdentity(config.ipv6Subnet);
    this.userRules = rules.map((rule) => rule.strategy.identifierSource === USER_SOURCE);
    this.hashingRules = rules.map((rule) => privacy.hashes(rule.strategy.identifierSource));
    const unverifiable = verifyCaller ? [] : rules.filter((rule) => this.userRules[rule.index]);
    if (unverifiable.length > 0) {
      throw new RateLimitConfigError(
        unverifiable.map((rule) => `strategy[${rule.index}].identifierSource: "user" needs a verifier of users and API tokens: the Strapi plugin has one; plain Koa apps pass the verifyCaller option`),
      );
    }
    this.events = config.analytics ? new DecisionEvents(redis, eventsPrefix(config.prefix, config.placement)) : undefined;
    this.shadowLog = new ShadowLog(logger);
    this.lastLimits = new LastSeenLimits(rules.map((rule) => rule.limit.tokens));
    this.foreignLimits = new ForeignLiveLimitWarnings(logger);
    this.denyList = config.denyList ? denyCheckOf(config, scripts, redis) : undefined;
    this.endpoint =
      graphql &&
      new GraphqlEndpoint(graphql, {
        matchingRules: (ctx) => this.matchingRules(ctx),
        refusedBeforeReading: (ctx, next, matched) => this.refusedBeforeReading(ctx, next, matched),
        limitMatches: (ctx, next, matched) => this.limitMatches(ctx, next, matched),
        budgetOf: (check) => this.limitOf(check.tier, check.rule.index),
        info: (line) => logger.info(line),
        shadowLog: this.shadowLog,
      });
  }

  /**
   * Synchronous up to the verdict when it needs no store: a caller in the block cache is refused
   * without an async step of the plugin's own. Like an async function, it never throws: a failure
   * is the returned promise's rejection.
   */
  readonly middleware = (ctx: Context, next: Next): Promise<void> => {
    try {
      if (this.endpoint?.at(ctx.path)) return this.endpoint.limit(ctx, next);
      return this.limitMatches(ctx, next, this.matchingRules(ctx));
    } catch (failure) {
      return Promise.reject(failure);
    }
  };

  /** The request once the deployment's key is read; the failure mode when the store cannot give it. */
  private afterHeaderKey(ctx: Context, next: Next, matched: readonly Match[]): Promise<void> {
    return this.privacy.key.ready().then(
      () => this.limitMatches(ctx, next, matched),
      (failure: unknown) => {
        this.health.failed(failure);
        if (this.config.failureMode === 'closed' && matched.some((match) => match.rule.mode === 'enforce')) return this.respond(ctx, { status: 503, message: STORE_UNAVAILABLE });
        return this.memory ? this.decideInMemory(ctx, next, matched, this.memory) : next();
      },
    );
  }

  /** failureMode 'local' while the deployment's key is unknown: counted in memory, hashed headers under this instance's own key (never sent anywhere). */
  private async decideInMemory(ctx: Context, next: Next, matched: readonly Match[], memory: readonly MemoryLimiter[]): Promise<void> {
    const verified = matched.some((match) => this.userRules[match.rule.index]) ? await this.verifiedCaller(ctx) : undefined;
    const checks = this.privacy.key.withLocalKey(() => this.checksFor(ctx, matched, verified, undefined));
    if (checks.length === 0) return next();
    const now = Date.now();
    return this.answer(ctx, next, this.inMemory(checks, memory, now), now);
  }

  private inMemory(checks: readonly Check[], memory: readonly MemoryLimiter[], now: number): Outcome[] {
    return checks.map((check) => ({ check, ...memory[check.rule.index].limit(check.limiterKey, now, this.limitOf(check.tier, check.rule.index), check.tier.limit.refillRate, check.rate), from: 'memory' as const }));
  }

  private limitMatches(ctx: Context, next: Next, matched: readonly Match[]): Promise<void> {
    if (matched.length === 0) return next();
    if (!this.privacy.key.known && matched.some((match) => this.hashingRules[match.rule.index])) return this.afterHeaderKey(ctx, next, matched);
    // The principal of `user` strategies is verified once per request, and only when one matches.
    if (matched.some((match) => this.userRules[match.rule.index])) return this.verifiedCaller(ctx).then((verified) => this.decide(ctx, next, matched, verified));
    return this.decide(ctx, next, matched, undefined);
  }

  /**
   * What memory alone answers (graphql-endpoint.ts asks before reading a body): a caller this
   * instance knows to be denied by its IP, when a strategy of `matched` would check it, then a caller a
   * route strategy of `matched` has blocked. Only callers known without the store or a verified user.
   */
  private refusedBeforeReading(ctx: Context, next: Next, matched: readonly Match[]): Promise<void> | undefined {
    // A header keyed by its HMAC has no identifier until the deployment's key is read.
    const identifiable = (rule: CompiledRule): boolean => this.privacy.key.known || !this.hashingRules[rule.index];
    const now = Date.now();
    if (this.denyList) {
      const ip = this.ipIdentity(ctx);
      const denied = this.denyList.cached(ipMembers(ip), now);
      // As anywhere, a caller every strategy's allow list admits is not checked. A `user` strategy
      // identifies by IP until it verifies someone, whom no entry admits: it surely checks whom its IP's entry does not admit.
      if (denied !== undefined && matched.some(({ rule }) => identifiable(rule) && !this.allowed(rule.identify(ctx, () => ip)))) return this.deny(ctx, matched, denied, []);
    }
    if (this.blocked.size === 0) return undefined;
    const routes = matched.filter(({ rule }) => !rule.graphql && !this.userRules[rule.index] && identifiable(rule));
    const cached = this.cachedRefusal(this.checksFor(ctx, routes, undefined, undefined), now);
    return cached && this.answer(ctx, next, [cached], now);
  }

  private decide(ctx: Context, next: Next, matched: readonly Match[], verified: VerifiedCaller | undefined): Promise<void> {
    // With the deny list on, the request's members (deny/deny-members.ts) are collected with its checks.
    const denyMembers: string[] | undefined = this.denyList && [];
    let checks = this.checksFor(ctx, matched, verified, denyMembers);
    if (checks.length === 0) return next();
    const now = Date.now();
    // A caller denied in memory is refused before anything else, whatever the store's state.
    const denied = denyMembers && this.denyList?.cached(denyMembers, now);
    if (denied !== undefined) return this.deny(ctx, checks, denied, []);
    // Only GraphQL strategies take more than 1; a request costing more than one's whole budget takes 1 and is answered by the plugin.
    if (this.endpoint && checks.some((check) => check.rate > 1)) {
      ({ checks, next } = this.endpoint.priced(ctx, checks, now, next));
      if (checks.length === 0) return next();
    }
    // A caller blocked by any strategy is refused from memory: no store call, no token spent elsewhere.
    const cached = this.cachedRefusal(checks, now);
    return cached ? this.answer(ctx, next, [cached], now) : this.decideInStore(ctx, next, checks, now, denyMembers);
  }

  private async decideInStore(ctx: Context, next: Next, checks: readonly Check[], now: number, denyMembers: readonly string[] | undefined): Promise<void> {
    let outcomes: Outcome[];
    // Queued in this turn, before the limits: the deny check rides their /pipeline round trip.
    const denial = denyMembers && this.denyList?.check(denyMembers, now);
    // Awaited below; when a limit fails first, its failure (the same store's) is the one handled.
    denial?.catch(ignoreFailure);
    // Kept only with several strategies, so a failure still knows which of them took a token.
    let pending: Array<Promise<Outcome>> | undefined;
    try {
      // One strategy (the usual case) skips Promise.all's extra promise and array.
      outcomes = checks.length === 1 ? [await this.limit(checks[0])] : await Promise.all((pending = checks.map((check) => this.limit(check))));
      const denied = denial && (await denial);
      this.health.recovered();
      if (denied !== undefined) return this.deny(ctx, checks, denied, outcomes);
    } catch (failure) {
      // A foreign live value is no outage: the store answered, with no verdict for that strategy.
      if (failure instanceof ForeignLiveLimitError) {
        this.foreignLimits.warn(failure);
        this.health.undecided();
      } else this.health.failed(failure);
      // One command of the round trip can fail while others answer (a Cluster master down, a foreign
      // live value): a deny the store gave refuses whatever the failure mode, closed refuses what an
      // enforcing strategy covers (shadow strategies alone refuse nothing), and either gives back the
      // tokens the answered checks took. Otherwise what the store answered stands, and only the checks
      // it did not answer are let through (open) or decided in memory (local), never counted twice.
      const answered = await answeredOutcomes(pending);
      const denied = denial && (await denial.catch(ignoreFailure));
      if (denied !== undefined) return this.deny(ctx, checks, denied, answered);
      if (this.config.failureMode === 'closed' && checks.some((check) => check.rule.mode === 'enforce')) return this.refuseGivingBack(ctx, { status: 503, message: STORE_UNAVAILABLE }, answered);
      if (!this.memory) outcomes = answered;
      else {
        const decided = new Set(answered.map((outcome) => outcome.check));
        outcomes = [...answered, ...this.inMemory(checks.filter((check) => !decided.has(check)), this.memory, now)];
      }
    }
    return this.answer(ctx, next, outcomes, now);
  }

  /** Answers a refusal: in GraphQL's shape at the GraphQL endpoint (with the refusing check's cost), else through the configured responder. */
  private respond(ctx: Context, refusal: Refusal, cost?: number): void {
    if (this.endpoint?.at(ctx.path)) this.endpoint.refuse(ctx, refusal, cost);
    else this.refuse(ctx, refusal);
  }

  /** The headers of the tightest enforcing outcome (a refusing one when any refused), then next, or a 429 after giving the admitting strategies their tokens back. */
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
      // A refusal is reported before any admission (its remaining as its limiter answered it, which
      // for a refused request of several tokens may be more than an admitting strategy has left).
      if (tightest === undefined || (outcome.success === tightest.success ? outcome.remaining < tightest.remaining : !outcome.success)) tightest = outcome;
      if (!outcome.success && outcome.reset > retryAt) retryAt = outcome.reset;
    }
    void this.events?.record(outcomes, retryAt === 0, now);
    // Only shadow strategies matched: no limit applies, so no rate-limit headers either.
    if (tightest === undefined) return next();
    const state: LimitState = { limit: tightest.limit, remaining: tightest.remaining, reset: tightest.reset, windowSeconds: tightest.check.rule.windowSeconds };
    setRateLimitHeaders(ctx, this.config.headers, state, now);
    if (retryAt === 0) return this.endpoint ? this.endpoint.admitted(ctx, next, outcomes) : next();
    setRetryAfter(ctx, retryAt, now);
    const refusal = { status: 429, message: TOO_MANY_REQUESTS, limit: state.limit, remaining: state.remaining, reset: retryAt } as const;
    // A refusal consumes nothing: the strategies that admitted the request get their tokens back.
    return this.refuseGivingBack(ctx, refusal, outcomes, tightest.check.cost);
  }

  /** Answers `refusal` once the tokens the store outcomes among `outcomes` took are given back (at once when none took one). */
  private refuseGivingBack(ctx: Context, refusal: Refusal, outcomes: readonly Outcome[], cost?: number): Promise<void> {
    // An admitting store outcome took its rate; a refusal took nothing (a fixed window's refusal of 1
    // counts past the limit, which refuses the caller anyway), nor did the block cache's.
    const taken = outcomes.filter((outcome) => outcome.from === 'store' && outcome.success);
    if (taken.length === 0) {
      this.respond(ctx, refusal, cost);
      return ANSWERED;
    }
    return giveBack(taken.map(takenToken)).then(() => this.respond(ctx, refusal, cost));
  }

  /** 403, no rate-limit headers, after giving back every token the request's checks took; a debug line when one of `deciders` asks for it. */
  private deny(ctx: Context, deciders: ReadonlyArray<{ readonly rule: CompiledRule }>, member: string, outcomes: readonly Outcome[]): Promise<void> {
    if (deciders.some(({ rule }) => rule.debug)) this.logger.info(`[ratelimit] ${ctx.method} ${ctx.path}: denied (${member})`);
    void this.events?.recordDenied(member, Date.now());
    return this.refuseGivingBack(ctx, { status: 403, message: DENIED }, outcomes);
  }

  private matchingRules(ctx: Context): Match[] {
    // Raw, as the router sees it: see match.ts.
    const path = ctx.path;
    const matched: Match[] = [];
    for (const rule of this.rules) {
      const method = rule.keyMethod(ctx.method);
      if (method !== undefined && rule.matches(path)) matched.push({ rule, method, rate: 1 });
    }
    return matched;
  }

  /** The request's checks; with `members`, also collects its deny-list members (each once). */
  private checksFor(ctx: Context, matched: readonly Match[], verified: VerifiedCaller | undefined, members: string[] | undefined): Check[] {
    const checks: Check[] = [];
    let ip: IpIdentity | undefined;
    const byIp = (): IpIdentity => (ip ??= this.ipIdentity(ctx));
    for (const { rule, method, rate } of matched) {
      const byPrincipal = this.userRules[rule.index];
      const identity = verified && byPrincipal ? verifiedIdentity(verified) : rule.identify(ctx, byIp);
      if (this.allowed(identity)) continue;
      checks.push(new Check(rule, method, identity.id, byPrincipal && rule.tierLimiters.size > 0 ? this.tierOf(rule, identity.id, verified) : rule.own, rate));
      if (members) {
        const member = identityMember(identity);
        if (member !== undefined && !members.includes(member)) members.push(member);
      }
    }
    // Whatever the strategies identify by, a denied IP is denied on every route they cover.
    if (members && checks.length > 0) members.push(...ipMembers(byIp()));
    return checks;
  }

  /** The tier of a caller on a strategy with tiers, remembered for the usage view. */
  private tierOf(rule: CompiledRule, identifier: string, verified: VerifiedCaller | undefined): TierLimiter {
    const caller = callerClass(verified);
    this.callersSeen.saw(identifier, caller ?? DEFAULT_TIER, Date.now());
    return tierFor(rule, caller);
  }

  /** A verifier that fails (its database is down) leaves the request limited by IP, never unlimited. */
  private async verifiedCaller(ctx: Context): Promise<VerifiedCaller | undefined> {
    try {
      return await this.verifyCaller?.(ctx, this.ipIdentity(ctx).id);
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
    for (const method of rule.methods) this.blocked.forget(strategyIndex, method, caller);
  };

  /**
   * Whether this instance refused `caller` on a strategy and method until a reset still to come (the
   * usage view's "blocked"): its block cache, or for a shadow strategy, which blocks no one, its log
   * of would-be refusals.
   */
  readonly refusedHere = (strategyIndex: number, method: string, caller: string, now: number): boolean => {
    const rule = this.rules[strategyIndex];
    if (!rule) return false;
    return rule.mode === 'shadow' ? this.shadowLog.wasLogged(rule, rule.keys.limiterKey(method, caller), now) : this.blocked.refusedAt(strategyIndex, method, caller, now);
  };

  /**
   * After this instance changed a rule's live limit (the admin API): remembers the new effective
   * limit and, when it rose, forgets the rule's blocked callers at once, whose refusals counted
   * against the old one.
   */
  readonly liveLimitChanged = (strategyIndex: number, before: number, after: number): void => {
    this.lastLimits.saw(strategyIndex, after);
    if (after > before) this.blocked.forgetStrategy(strategyIndex);
  };

  /** The block that lasts longest among the request's strategies, so Retry-After is not too early. */
  private cachedRefusal(checks: readonly Check[], now: number): Outcome | undefined {
    // Nobody blocked (the allowed path's usual state): nothing to look up.
    if (this.blocked.size === 0) return undefined;
    let longest: Check | undefined;
    let longestReset = 0;
    for (const check of checks) {
      const reset = this.blocked.blockedUntil(check.rule.index, check.method, check.caller, now, check.tier.name, check.rate);
      if (reset !== undefined && reset > longestReset) {
        longest = check;
        longestReset = reset;
      }
    }
    return longest && { check: longest, success: false, limit: this.limitOf(longest.tier, longest.rule.index), remaining: 0, reset: longestReset, from: 'block cache' };
  }

  /** The limit a tier applies when the store is not asked: the strategy's last live limit seen for its own limiter, the tier's tokens for a tier. */
  private limitOf(tier: TierLimiter, ruleIndex: number): number {
    return tier.live ? this.lastLimits.of(ruleIndex) : tier.limit.tokens;
  }

  /** Not async: an admitted request (the usual case) costs one promise per strategy, the library's own. */
  private limit(check: Check): Promise<Outcome> {
    // The limiters keep no analytics of their own (decision-events.ts records), so `pending` is settled.
    const { rule, tier } = check;
    return tier.limiter.limit(check.limiterKey, check.rate === 1 ? undefined : { rate: check.rate }).then(
      (result) => {
        // The answer of a script that read a foreign live value is no verdict (foreign-live-limit.ts).
        if (!isValidLimit(result.limit)) throw invalidLimitAnswer(rule, result.limit);
        // Only the strategy's own limiter reads its live limit; a tier answers its own tokens, and says
        // nothing of a foreign live value (warned about once until the own limiter answers validly).
        if (tier.live) {
          this.foreignLimits.answered(rule.index);
          if (this.lastLimits.saw(rule.index, result.limit)) this.blocked.forgetStrategy(rule.index);
        }
        const limit = result.limit;
        // A token bucket filled under a higher limit keeps its tokens after the limit is lowered, until
        // it refills: the headers never say more remain than the limit.
        const remaining = Math.min(limit, Math.max(0, result.remaining || 0));
        const outcome: Outcome = { check, success: result.success, limit, remaining, reset: result.reset, from: 'store' };
        // A shadow strategy refuses no one, so it is never remembered as blocked.
        return result.success || rule.mode === 'shadow' ? outcome : this.remembered(outcome);
      },
      (failure: unknown) => {
        throw scriptFailure(rule, failure);
      },
    );
  }

  /** A refused caller is answered from memory until the algorithm could admit it again, and told to retry then. */
  private async remembered(outcome: Outcome): Promise<Outcome> {
    const { check } = outcome;
    const { rule } = check;
    // A sliding window's reopening is computed for a request of 1 (sliding-window-reopening.ts): a larger one is not remembered.
    if (check.rate > 1 && rule.limit.algorithm === 'sliding-window') return outcome;
    const reopensAt = await rule.reopensAt(check.method, check.caller, outcome.reset, outcome.limit);
    if (reopensAt === undefined) return outcome;
    // A window refusal is held at most blockedCacheMaxMs, so a limit raised elsewhere reaches this
    // instance within it; a raised limit adds no token to an empty bucket, so bucket refusals last to the refill.
    const heldUntil = rule.limit.algorithm === 'token-bucket' ? reopensAt : Date.now() + this.config.blockedCacheMaxMs;
    this.blocked.block(rule.index, check.method, check.caller, reopensAt, heldUntil, check.tier.name, check.rate);
    return { ...outcome, reset: reopensAt };
  }

  private logDebug(ctx: Context, outcome: Outcome): void {
    const { check } = outcome;
    const verdict = !outcome.success ? (check.rule.mode === 'shadow' ? 'would be blocked (shadow)' : 'blocked') : check.tooCostly ? `too costly (more than the limit ${check.tooCostly.limit}), 1 taken` : 'allowed';
    this.logger.info(
      `[ratelimit] ${ctx.method} ${ctx.path} -> strategy ${check.method} ${check.rule.route} ${check.caller}${check.rule.tierLimiters.size > 0 ? ` (tier ${check.tier.name})` : ''}${check.rule.graphql ? ` costs ${check.cost}` : ''}: ${verdict}, remaining ${outcome.remaining}/${outcome.limit}, reset in ${Math.max(0, Math.ceil((outcome.reset - Date.now()) / 1000))}s${FROM_NOTE[outcome.from]}`,
    );
  }
}
