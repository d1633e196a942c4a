// Child process: the Koa app under load, one scenario per process (see scenarios.ts): a plain Koa app
// with one trivial route behind the scenario's limiter. It measures its own CPU time between the
// parent's `cpu-start` and `cpu-stop` calls, and on the embedded store what reached that store. (The
// Strapi scenarios run in tests/fixtures/strapi-child.ts, with strapi-app-extension.ts.)
import type { Middleware } from 'koa';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { createRateLimitMiddleware } from '../server/src';
import { setRateLimitHeaders, setRetryAfter } from '../server/src/http/headers';
import { jsonRefusal } from '../server/src/http/middleware';
import { reportStartFailure, serveCalls } from '../tests/fixtures/child-protocol';
import { startKoaApp } from '../tests/fixtures/koa-app';
import { createAppMeter, type AppMeter } from './app-meter';
import { countEmbeddedStoreRequests } from './embedded-store-meter';
import { rateLimiterFlexible, rateLimiterFlexibleOnRedis } from './peer-middleware';
import { HIGH, IDENTIFIER_HEADER, PEER_KEY_PREFIX, pluginConfig, ROUTE, type AppScenario, type LimiterSpec } from './scenarios';
import type { StoreReady } from './store-process';

export interface AppChildInput {
  readonly scenario: AppScenario;
  readonly stores: StoreReady;
  /** The throwaway redis-server, for rate-limiter-flexible's Redis store and the plugin over redis://. */
  readonly redisUrl?: string;
}

export interface KoaAppReady {
  readonly url: string;
}


/** The refusal the plugin sends a blocked caller (same headers, same body), with no limiter behind it. */
const staticRefusal: Middleware = (ctx) => {
  const now = Date.now();
  const reset = now + 3_600_000;
  setRateLimitHeaders(ctx, 'standard', { limit: 1, remaining: 0, reset, windowSeconds: 3600 }, now);
  setRetryAfter(ctx, reset, now);
  jsonRefusal(ctx, { status: 429, message: 'Too many requests, please try again later', limit: 1, remaining: 0, reset });
};

function koaLimiter(spec: LimiterSpec, input: AppChildInput, meter: AppMeter): Middleware | undefined {
  if (spec.kind === 'none') return undefined;
  if (spec.kind === 'static-refusal') return staticRefusal;
  if (spec.kind === 'plugin') return createRateLimitMiddleware(pluginConfig(spec, input.stores, input.redisUrl), { logger: meter.logger, environment: 'development' });
  if (spec.store === 'memory') return rateLimiterFlexible(new RateLimiterMemory({ points: HIGH, duration: 60 }), IDENTIFIER_HEADER);
  if (!input.redisUrl) throw new Error(`no redis-server for ${input.scenario.name}`);
  return rateLimiterFlexibleOnRedis(input.redisUrl, PEER_KEY_PREFIX, IDENTIFIER_HEADER);
}

async function main(): Promise<void> {
  const input = JSON.parse(process.argv[2]) as AppChildInput;
  const spec = input.scenario.limiter;
  const meter = createAppMeter(spec.kind === 'plugin' && spec.store === 'embedded' ? countEmbeddedStoreRequests() : undefined);
  const limiter = koaLimiter(spec, input, meter);
  const app = startKoaApp(limiter ? [limiter] : [], (ctx) => {
    if (ctx.path === ROUTE) ctx.body = { ok: true, id: null };
  });
  await app.listening;
  serveCalls({ url: app.url() } satisfies KoaAppReady, meter.calls, async () => app.close());
}

main().catch(reportStartFailure);
