// The admin API's controllers: the usage report, resetting one caller and a strategy's live limit, served by the app's
// one rate limiter (create-middleware.ts), so the page reads the store the limiter counts in and a
// reset also frees the caller's block in that limiter's memory. A store that cannot be reached
// answers 503 with a sentence for the page, never a stack; the usage report's 503 also carries the
// part of the report that needs no store (the configured strategies, the fail-open count).
import type { Context } from 'koa';
import { failureMessage } from '../failure-message';
import { adminOf } from './admin-of';
import { withCallerNames, type CallerNames, type ReadingAbility } from './caller-names';
import { isStrategyIndex, pathStrategyIndex, strategyIndexMessage } from './strategy-index';
import { isValidLimit, MAX_TOKENS } from '../config/bounds';
import { DEFAULT_USAGE_LIMITS, type UsageLimits } from './usage-service';
import type { ConfiguredReport, LiveLimitResult, UsageReport } from './usage-types';

const MAX_CALLERS_CEILING = 1000;

/** What the controllers need of the rate limiter. */
export interface UsageSource {
  readonly config: { readonly strategy: readonly unknown[] };
  readUsage(limits: UsageLimits): Promise<UsageReport>;
  configuredReport(): ConfiguredReport;
  resetCaller(strategyIndex: number, identifier: string): Promise<number>;
  setLiveLimit(strategyIndex: number, tokens: number | null, by: string): Promise<LiveLimitResult>;
}

export function storeDown(ctx: Context, error: unknown, details: object = {}): void {
  ctx.status = 503;
  ctx.body = {
    data: null,
    error: { status: 503, name: 'StoreUnavailableError', message: `The rate-limit store cannot be reached: ${failureMessage(error)}`, details },
  };
}

export function badRequest(ctx: Context, message: string): void {
  ctx.status = 400;
  ctx.body = { data: null, error: { status: 400, name: 'ValidationError', message, details: {} } };
}

/** `?limit=` between 1 and 1000, else the default. */
function callerLimit(value: unknown): number {
  const limit = Number(value);
  return Number.isInteger(limit) && limit > 0 ? Math.min(limit, MAX_CALLERS_CEILING) : DEFAULT_USAGE_LIMITS.maxCallers;
}

/** The reading admin's abilities, as Strapi's admin auth strategy leaves them. */
const abilityOf = (ctx: Context): ReadingAbility | undefined => (ctx.state as { userAbility?: ReadingAbility } | undefined)?.userAbility;

/**
 * @param source the app's rate limiter, looked up when a request arrives.
 * @param callerNames names the verified callers (Strapi's users and API tokens), if the host has them.
 */
export const usageController = (source: () => UsageSource, callerNames?: CallerNames) => ({
  async read(ctx: Context): Promise<void> {
    try {
      const report = await source().readUsage({ ...DEFAULT_USAGE_LIMITS, maxCallers: callerLimit(ctx.query.limit) });
      ctx.body = { data: await withCallerNames(report, callerNames, abilityOf(ctx)) };
    } catch (error) {
      storeDown(ctx, error, { report: source().configuredReport() });
    }
  },

  /** `PUT /strategies/:index/limit` with `{tokens}`: the strategy's live limit on every instance. */
  async setLimit(ctx: Context): Promise<void> {
    const body = ((ctx.request as { body?: unknown }).body ?? {}) as { tokens?: unknown };
    if (!isValidLimit(body.tokens)) return badRequest(ctx, `tokens must be a whole number from 1 to ${MAX_TOKENS}`);
    await changeLimit(ctx, source(), body.tokens);
  },

  /** `DELETE /strategies/:index/limit`: back to the configured tokens. */
  async clearLimit(ctx: Context): Promise<void> {
    await changeLimit(ctx, source(), null);
  },

  async reset(ctx: Context): Promise<void> {
    const limiter = source();
    const strategies = limiter.config.strategy.length;
    const body = ((ctx.request as { body?: unknown }).body ?? {}) as { strategy?: unknown; identifier?: unknown };
    const { strategy, identifier } = body;
    if (!isStrategyIndex(strategy, strategies)) return badRequest(ctx, strategyIndexMessage(strategies));
    if (typeof identifier !== 'string' || identifier.length === 0 || identifier.includes(':')) {
      return badRequest(ctx, 'identifier must be a caller identifier as listed by GET /ratelimit/usage');
    }
    try {
      const deletedKeys = await limiter.resetCaller(strategy, identifier);
      ctx.body = { data: { strategy, identifier, deletedKeys } };
    } catch (error) {
      storeDown(ctx, error);
    }
  },
});

async function changeLimit(ctx: Context, limiter: UsageSource, tokens: number | null): Promise<void> {
  const strategies = limiter.config.strategy.length;
  const index = pathStrategyIndex((ctx.params as { index?: unknown } | undefined)?.index, strategies);
  if (index === undefined) return badRequest(ctx, strategyIndexMessage(strategies));
  try {
    ctx.body = { data: await limiter.setLiveLimit(index, tokens, adminOf(ctx)) };
  } catch (error) {
    storeDown(ctx, error);
  }
}
