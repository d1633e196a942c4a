// Test support for the plugin's Koa middleware: a Koa app with the limiter in front of a trivial
// route, against a real key-value REST server (memory engine unless a suite names the redis engine).
import { Analytics } from '@upstash/ratelimit';
import { Redis } from '@upstash/redis';
import supertest from 'supertest';
import { startKvRestServer, type KvRestServer } from '../../../mock';
import { startKoaApp } from '../../fixtures/koa-app';
import { startServer, type EngineName } from '../../support/kv-servers';
import { createRateLimitMiddleware, type CallerVerifier, type RateLimitConfigInput, type RateLimitMiddleware } from '../../../server/src';

/** A route strategy as written (GraphQL strategies have their own helper in the GraphQL suites). */
type Strategy = Extract<NonNullable<RateLimitConfigInput['strategy']>[number], { methods: unknown }>;

export interface LimitedApp {
  readonly request: ReturnType<typeof supertest>;
  readonly limiter: RateLimitMiddleware;
  readonly logs: { info: string[]; warn: string[] };
  close(): void;
}

/** `verifyCaller`: the verifier of `identifierSource: 'user'` strategies (a fake one outside Strapi). */
export function limitedApp(config: Record<string, unknown>, options: { proxy?: boolean; verifyCaller?: CallerVerifier } = {}): LimitedApp {
  const logs = { info: [] as string[], warn: [] as string[] };
  const limiter = createRateLimitMiddleware(config, { logger: { info: (line) => logs.info.push(line), warn: (line) => logs.warn.push(line) }, verifyCaller: options.verifyCaller });
  const app = startKoaApp([limiter], (ctx) => void (ctx.body = { ok: true, path: ctx.path, ip: ctx.request.ip }), options);
  return { request: supertest(app.server), limiter, logs, close: () => (app.close(), limiter.close()) };
}

export const strategy = (overrides: Partial<Strategy> = {}, limiter: Partial<Strategy['limiter']> = {}): Strategy => ({
  methods: ['GET'],
  path: '/limited',
  identifierSource: 'ip',
  ...overrides,
  limiter: { algorithm: 'fixed-window', tokens: 3, window: '1h', ...limiter },
});

/** Apps a test opens, closed after each test (with the fake clock some of them set back to real). */
export function appsClosedAfterEach(): LimitedApp[] {
  const apps: LimitedApp[] = [];
  afterEach(() => {
    for (const app of apps.splice(0)) app.close();
    jest.useRealTimers();
  });
  return apps;
}

export async function statuses(send: () => PromiseLike<{ status: number }>, count: number): Promise<number[]> {
  const seen: number[] = [];
  for (let i = 0; i < count; i++) seen.push((await send()).status);
  return seen;
}

/** A key-value REST server (on `engine`, the memory engine unless named) for the whole suite, and a client of its own to inspect it. */
export function storeForSuite(engine: EngineName = 'memory'): { readonly kv: KvRestServer; readonly redis: Redis } {
  const store = {} as { kv: KvRestServer; redis: Redis };
  beforeAll(async () => {
    store.kv = await startServer(engine);
    store.redis = new Redis({ url: store.kv.url, token: store.kv.token });
  });
  afterAll(() => store.kv?.close());
  return store;
}

/**
 * For the deny list's suites on several instances: three instances of one config on `store`'s
 * key-value server under `prefix`, limiting callers by their `x-caller` header and answering every
 * deny check from the store (no hit cache), added to `apps` (closed after each test).
 */
export function denyCheckingInstances(store: { readonly kv: KvRestServer }, apps: LimitedApp[], prefix: string): LimitedApp[] {
  const made = [0, 1, 2].map(() => limitedApp({ url: store.kv.url, token: store.kv.token, prefix, denyCacheMs: 0, strategy: [strategy({ identifierSource: 'header.x-caller' }, { tokens: 100 })] }));
  apps.push(...made);
  return made;
}

/**
 * @upstash/ratelimit's analytics under `prefix` over the last hour, polled until `expectedEvents`
 * events have arrived (the plugin writes them after the response).
 */
export async function analyticsUsage(redis: Redis, prefix: string, expectedEvents: number): Promise<Record<string, { success: number; blocked: number }>> {
  const analytics = new Analytics({ redis, prefix });
  for (let attempt = 0; attempt < 50; attempt++) {
    const usage = await analytics.getUsage(Date.now() - 3_600_000).catch(() => ({}));
    if (Object.values(usage).reduce((sum, counts) => sum + counts.success + counts.blocked, 0) >= expectedEvents) return usage;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return analytics.getUsage(Date.now() - 3_600_000);
}

export { startKvRestServer, type KvRestServer };
