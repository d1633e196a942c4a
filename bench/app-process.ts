// Child process: the app under load, one scenario per process (see scenarios.ts): a plain Koa app
// with one trivial route, or the demo Strapi app, behind the scenario's limiter. It measures its own
// CPU time between the parent's `cpu-start` and `cpu-stop` calls.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Redis from 'ioredis';
import type { Middleware } from 'koa';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { bootStrapi } from '../demo/boot-strapi';
import { createCredential } from './credentials';
import { createRateLimitMiddleware } from '../server/src';
import { setRateLimitHeaders, setRetryAfter } from '../server/src/http/headers';
import { jsonRefusal } from '../server/src/http/middleware';
import { startKoaApp } from '../tests/fixtures/koa-app';
import { serveCalls } from './ipc';
import { HIGH, IDENTIFIER_HEADER, ROUTE, type AppScenario, type LimiterSpec } from './scenarios';
import type { StoreReady } from './store-process';

export interface AppChildInput {
  readonly scenario: AppScenario;
  readonly stores: StoreReady;
  /** The throwaway redis-server, for rate-limiter-flexible's Redis store. */
  readonly redisUrl?: string;
}

export interface AppReady {
  readonly url: string;
  /** Headers every request of the load sends: the scenario's credential, if it has one. */
  readonly headers: Readonly<Record<string, string>>;
}

export interface AppUsage {
  readonly cpuMicros: number;
  /** The plugin's store-failure warnings (one per outage: requests let through unlimited). */
  readonly storeFailures: number;
}

let storeFailures = 0;
const countingLogger = { info: () => undefined, warn: () => void (storeFailures += 1) };

/** rate-limiter-flexible the way its README wires it into Koa: consume one point, 429 on rejection. */
function rateLimiterFlexible(limiter: RateLimiterAbstract): Middleware {
  return async (ctx, next) => {
    try {
      await limiter.consume(ctx.get(IDENTIFIER_HEADER) || ctx.ip);
    } catch (rejection) {
      if (rejection instanceof Error) throw rejection;
      ctx.status = 429;
      ctx.body = { error: 'Too many requests' };
      return;
    }
    return next();
  };
}

/** The refusal the plugin sends a blocked caller (same headers, same body), with no limiter behind it. */
const staticRefusal: Middleware = (ctx) => {
  const now = Date.now();
  const reset = now + 3_600_000;
  setRateLimitHeaders(ctx, 'standard', { limit: 1, remaining: 0, reset, windowSeconds: 3600 }, now);
  setRetryAfter(ctx, reset, now);
  jsonRefusal(ctx, { status: 429, message: 'Too many requests, please try again later', limit: 1, remaining: 0, reset });
};

/** The plugin's url and token for a store; none for the embedded store (development, in this process). */
function storeConfig(store: 'memory' | 'redis' | 'embedded', input: AppChildInput): { url?: string; token?: string } {
  if (store === 'embedded') return {};
  const endpoint = input.stores[store];
  if (!endpoint) throw new Error(`no ${store} store for ${input.scenario.name}`);
  return { url: endpoint.url, token: endpoint.token };
}

function koaLimiter(spec: LimiterSpec, input: AppChildInput): Middleware | undefined {
  if (spec.kind === 'none') return undefined;
  if (spec.kind === 'static-refusal') return staticRefusal;
  if (spec.kind === 'plugin') return createRateLimitMiddleware({ ...storeConfig(spec.store, input), strategy: [...spec.strategy] }, { logger: countingLogger, environment: 'development' });
  if (spec.store === 'memory') return rateLimiterFlexible(new RateLimiterMemory({ points: HIGH, duration: 60 }));
  if (!input.redisUrl) throw new Error(`no redis-server for ${input.scenario.name}`);
  return rateLimiterFlexible(new RateLimiterRedis({ storeClient: new Redis(input.redisUrl), points: HIGH, duration: 60, keyPrefix: 'bench-rlf' }));
}

async function startKoa(input: AppChildInput): Promise<Server> {
  const limiter = koaLimiter(input.scenario.limiter, input);
  const app = startKoaApp(limiter ? [limiter] : [], (ctx) => {
    if (ctx.path === ROUTE) ctx.body = { ok: true, id: null };
  });
  await app.listening;
  return app.server;
}

async function startStrapi(input: AppChildInput): Promise<{ server: Server; headers: Record<string, string> }> {
  const spec = input.scenario.limiter;
  if (spec.kind === 'rate-limiter-flexible' || spec.kind === 'static-refusal') throw new Error('the Strapi scenarios compare the plugin with no limiter only');
  const config = spec.kind === 'plugin' ? { ...storeConfig(spec.store, input), strategy: spec.strategy } : {};
  const { strapi } = await bootStrapi({ config, pluginEnabled: spec.kind === 'plugin', logLevel: 'error' });
  const credential = input.scenario.credential;
  const headers: Record<string, string> = credential ? { authorization: `Bearer ${await createCredential(strapi, credential)}` } : {};
  await new Promise<void>((resolve) => strapi.server.httpServer.listen(0, '127.0.0.1', resolve));
  return { server: strapi.server.httpServer, headers };
}

async function main(): Promise<void> {
  const input = JSON.parse(process.argv[2]) as AppChildInput;
  const { server, headers } = input.scenario.app === 'koa' ? { server: await startKoa(input), headers: {} } : await startStrapi(input);
  let started = process.cpuUsage();
  serveCalls({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, headers } satisfies AppReady, {
    'cpu-start': () => {
      started = process.cpuUsage();
      storeFailures = 0;
    },
    'cpu-stop': (): AppUsage => {
      const used = process.cpuUsage(started);
      return { cpuMicros: used.user + used.system, storeFailures };
    },
  });
}

main().catch((failure: unknown) => {
  console.error(failure);
  process.exit(1);
});
