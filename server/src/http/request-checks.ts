// What the middleware (middleware.ts) and the GraphQL endpoint (graphql-endpoint.ts) pass along a
// request's line: a strategy the request matches, its check of one caller, and the check's outcome.
import type { CompiledRule, TierLimiter } from './compile-strategies';

/** A strategy a request matches, and what the request takes from it. */
export interface Match {
  readonly rule: CompiledRule;
  /** The method in the rule's keys. */
  readonly method: string;
  /** The tokens the request takes (1 on a route strategy). */
  readonly rate: number;
}

/** A request costing more than a strategy's whole budget (graphql-endpoint.ts): the plugin answers it itself, and its check takes 1. */
export interface TooCostly {
  /** The request's count or cost on the strategy. */
  readonly cost: number;
  /** The whole budget it exceeds. */
  readonly limit: number;
}

/** One strategy's check of a request. Its limiter key is built when first read: a refusal from the block cache needs none. */
export class Check {
  private key: string | undefined;

  constructor(
    readonly rule: CompiledRule,
    /** The method and the caller in the keys (the block cache, debug lines, the sliding window's reopening). */
    readonly method: string,
    readonly caller: string,
    /** The limit the caller gets: the strategy's own, or its tier's. */
    readonly tier: TierLimiter,
    /** The tokens the request takes: 1, or a GraphQL request's count or cost. */
    readonly rate: number,
    /** Set when the request costs more than the whole budget: `rate` is then 1. */
    readonly tooCostly?: TooCostly,
  ) {}

  /** What the request costs on the strategy (what GraphQL answers report): its rate, or a too-costly request's whole cost. */
  get cost(): number {
    return this.tooCostly?.cost ?? this.rate;
  }

  /** What the limiter counts: `<method>:<route>:<identifier>:<limiter>` (see config/keys.ts). */
  get limiterKey(): string {
    return (this.key ??= this.rule.keys.limiterKey(this.method, this.caller));
  }
}

export interface Outcome {
  readonly check: Check;
  readonly success: boolean;
  readonly limit: number;
  readonly remaining: number;
  readonly reset: number;
  /** Who decided: the store, the block cache (a remembered refusal), or memory while the store is away (failureMode 'local'). */
  readonly from: 'store' | 'block cache' | 'memory';
}
