// What happens at the GraphQL endpoint when GraphQL strategies exist (docs/graphql.md), beside the
// middleware's straight line (middleware.ts), which it joins once the request's matches are known.
// First, what memory already answers is answered before the body is read: a caller this instance
// knows to be denied by its IP, and a caller a route strategy on the endpoint has blocked (a GraphQL
// strategy's block waits for the charge: it answers only requests at least as large, and the request
// may not run its fields at all). Then the request is charged (graphql/graphql-charges.ts: its body
// read once, its documents parsed once), and each GraphQL strategy whose fields it runs joins the
// route strategies matching the endpoint at its charge, a check's `rate`, passed to
// @upstash/ratelimit. A request the plugin will not pass on (it consumed the body, or a document is
// past a bound) is answered by the plugin itself once the strategies admit it, and so is a request
// costing more than a strategy's whole budget (`priced`): each is still counted. Refusals here are
// GraphQL errors, and with `graphql.extensions` an allowed response carries the tightest GraphQL
// strategy's state (graphql/graphql-answers.ts).
import type { Context, Next } from 'koa';
import type { GraphqlLimits } from '../graphql/graphql-limits';
import { addRateLimitExtensions, graphqlError, graphqlRefusal, graphqlTooCostly } from '../graphql/graphql-answers';
import { ANSWERED, type Refusal } from './refusal';
import { Check, type Match, type Outcome } from './request-checks';
import type { ShadowLog } from './shadow-log';

/** What the middleware's line offers the endpoint. */
export interface EndpointLine {
  /** The route strategies the request matches, each taking 1. */
  matchingRules(ctx: Context): Match[];
  /**
   * A refusal from memory alone, before the body is read, or undefined: a caller denied by its IP when
   * a strategy of `matched` would check it, or blocked by a route strategy of `matched`.
   */
  refusedBeforeReading(ctx: Context, next: Next, matched: readonly Match[]): Promise<void> | undefined;
  /** The line from identifying the callers of `matched` on: limits the request, then `next` or a refusal. */
  limitMatches(ctx: Context, next: Next, matched: readonly Match[]): Promise<void>;
  /** The whole budget of a check's caller: its tier's tokens, or the strategy's live limit last seen. */
  budgetOf(check: Check): number;
  readonly info: (line: string) => void;
  readonly shadowLog: ShadowLog;
}

export class GraphqlEndpoint {
  /** Every GraphQL strategy, as the deny list sees the endpoint before a charge is known: each covers it. */
  private readonly everyGraphqlStrategy: readonly Match[];

  constructor(
    private readonly limits: GraphqlLimits,
    private readonly line: EndpointLine,
  ) {
    this.everyGraphqlStrategy = limits.rules.map((rule) => ({ rule, method: 'ALL', rate: 1 }));
  }

  /** Whether a request's path is the endpoint (matched as the router matches it). */
  at(path: string): boolean {
    return this.limits.atEndpoint(path);
  }

  /** Route strategies count the request as anywhere; each GraphQL strategy takes the request's charge, when above 0. */
  async limit(ctx: Context, next: Next): Promise<void> {
    const matched = this.line.matchingRules(ctx);
    const refused = this.line.refusedBeforeReading(ctx, next, [...matched, ...this.everyGraphqlStrategy]);
    if (refused) return refused;
    const charged = await this.limits.charge(ctx);
    charged.charges.forEach((rate, index) => {
      const rule = this.limits.rules[index];
      if (rate > 0) matched.push({ rule, method: 'ALL', rate });
    });
    if (charged.kind === 'charged') return this.line.limitMatches(ctx, next, matched);
    // A request the plugin will not pass on (it consumed the body, or a document is past a bound) is answered once admitted.
    const answer = (): Promise<void> => {
      graphqlError(ctx, charged.status, charged.message, { code: charged.code });
      if (charged.headers) ctx.set(charged.headers);
      return ANSWERED;
    };
    return this.line.limitMatches(ctx, answer, matched);
  }

  /**
   * A request taking more tokens than a strategy's whole budget (its caller's tier, or the live limit
   * last seen) can never be admitted. The plugin answers it itself (400 QUERY_TOO_COSTLY), once every
   * other check has admitted it, and counts it as it counts a request it cannot read: the strategy
   * takes 1 token, so a flood of them (each read and parsed) is limited. A shadow strategy logs the
   * would-be refusal and takes nothing. Returns the checks to ask and what follows when they all admit
   * the request: `next`, or the plugin's answer.
   */
  priced(ctx: Context, checks: readonly Check[], now: number, next: Next): { readonly checks: Check[]; readonly next: Next } {
    const left: Check[] = [];
    let answer: Next | undefined;
    for (const check of checks) {
      const limit = this.line.budgetOf(check);
      if (check.rate <= limit) {
        left.push(check);
      } else if (check.rule.mode === 'shadow') {
        if (check.rule.debug) this.line.info(`[ratelimit] ${ctx.method} ${ctx.path} -> strategy ${check.method} ${check.rule.route} ${check.caller}: costs ${check.rate}, more than the limit ${limit} (shadow: not refused)`);
        this.line.shadowLog.wouldBlock(ctx.method, ctx.path, { check, reset: now }, now);
      } else {
        const tooCostly = { cost: check.rate, limit };
        left.push(new Check(check.rule, check.method, check.caller, check.tier, 1, tooCostly));
        // The first strategy it is too costly for is the one the answer names.
        answer ??= () => {
          graphqlTooCostly(ctx, tooCostly.cost, tooCostly.limit, check.rule.index);
          return ANSWERED;
        };
      }
    }
    return { checks: left, next: answer ?? next };
  }

  /** A refusal (429, 403, 503) as a GraphQL error; `cost`: what the request takes from the refusing check. */
  refuse(ctx: Context, refusal: Refusal, cost: number | undefined): void {
    graphqlRefusal(ctx, refusal, cost);
  }

  /** An admitted request: `next`, then, when the config asks for it, `extensions.rateLimit` of its tightest enforcing GraphQL strategy. */
  admitted(ctx: Context, next: Next, outcomes: readonly Outcome[]): Promise<void> {
    if (!this.limits.extensions) return next();
    let tightest: Outcome | undefined;
    for (const outcome of outcomes) {
      if (outcome.check.rule.graphql && outcome.check.rule.mode !== 'shadow' && (tightest === undefined || outcome.remaining < tightest.remaining)) tightest = outcome;
    }
    if (!tightest) return next();
    const { check, limit, remaining, reset } = tightest;
    return next().then(() => addRateLimitExtensions(ctx, { cost: check.cost, limit, remaining, reset }));
  }
}
