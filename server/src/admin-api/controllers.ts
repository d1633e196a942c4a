// The admin API's controllers: the usage report and resetting one caller. A store that cannot be
// reached answers 503 with a sentence for the page, never a stack.
import type { Context } from 'koa';
import { adminStoreFor, type ConfigSource } from './admin-store';
import { DEFAULT_USAGE_LIMITS, readUsage, resetCaller } from './usage-service';

const MAX_CALLERS_CEILING = 1000;

function storeDown(ctx: Context, error: unknown): void {
  const reason = error instanceof Error ? error.message : String(error);
  ctx.status = 503;
  ctx.body = {
    data: null,
    error: { status: 503, name: 'StoreUnavailable', message: `The rate-limit store cannot be reached: ${reason}`, details: {} },
  };
}

function badRequest(ctx: Context, message: string): void {
  ctx.status = 400;
  ctx.body = { data: null, error: { status: 400, name: 'ValidationError', message, details: {} } };
}

/** `?limit=` between 1 and 1000, else the default. */
function callerLimit(value: unknown): number {
  const limit = Number(value);
  return Number.isInteger(limit) && limit > 0 ? Math.min(limit, MAX_CALLERS_CEILING) : DEFAULT_USAGE_LIMITS.maxCallers;
}

export const usageController = ({ strapi }: { strapi: ConfigSource }) => ({
  async read(ctx: Context): Promise<void> {
    const { redis, config, failOpen } = adminStoreFor(strapi);
    try {
      ctx.body = { data: await readUsage(redis, config, { ...DEFAULT_USAGE_LIMITS, maxCallers: callerLimit(ctx.query.limit) }, Date.now(), failOpen?.()) };
    } catch (error) {
      storeDown(ctx, error);
    }
  },

  async reset(ctx: Context): Promise<void> {
    const { redis, config, resetListeners } = adminStoreFor(strapi);
    const body = ((ctx.request as { body?: unknown }).body ?? {}) as { strategy?: unknown; identifier?: unknown };
    const { strategy, identifier } = body;
    if (!Number.isInteger(strategy) || (strategy as number) < 0 || (strategy as number) >= config.strategy.length) {
      return badRequest(ctx, `strategy must be the index of a configured strategy (0 to ${config.strategy.length - 1})`);
    }
    if (typeof identifier !== 'string' || identifier.length === 0 || identifier.includes(':')) {
      return badRequest(ctx, 'identifier must be a caller identifier as listed by GET /ratelimit/usage');
    }
    try {
      const deletedKeys = await resetCaller(redis, config, strategy as number, identifier);
      for (const listener of resetListeners) listener(strategy as number, identifier);
      ctx.body = { data: { strategy, identifier, deletedKeys } };
    } catch (error) {
      storeDown(ctx, error);
    }
  },
});

export const adminControllers = { usage: usageController };
