// Test support: starts the key-value REST server on each engine available here, so one contract
// suite runs against all of them, or on the redis engine in front of a redis-server of the suite's
// own, and small helpers to call it over plain HTTP.
import { startKvRestServer, type KvRestServer, type KvRestServerOptions } from '../../mock';
import { REDIS_OF_THE_RUN } from '../fixtures/installed-programs';
import { ThrowawayRedisServer } from '../fixtures/redis-server';
import { describeWithProgram } from './installed-program';
import { executeAsSent } from './engine-commands';

export type EngineName = 'memory' | 'redis';

let database = 0;

/** A server on the named engine; on redis, each server gets an emptied database of its own (1-14 in turn; 15 is the engine's private one). */
export async function startServer(engine: EngineName, options: KvRestServerOptions = {}): Promise<KvRestServer> {
  if (engine === 'memory') return startKvRestServer({ ...options, engine });
  const url = new URL(process.env.REDIS_URL!);
  url.pathname = `/${(database++ % 14) + 1}`;
  const server = await startKvRestServer({ ...options, engine: 'redis', redisUrl: url.toString() });
  await executeAsSent(server.engine, [['FLUSHDB']], { transaction: false, caller: { user: 'default', address: 'tests' } });
  return server;
}

/**
 * Runs `suite` once per engine, each in its own `describe` named after the engine; on redis, against
 * the run's redis-server (skipped without one, unless REQUIRE_REDIS=1).
 */
export function describeEachEngine(title: string, suite: (engine: EngineName) => void): void {
  describe(`${title} [memory engine]`, () => suite('memory'));
  describeWithProgram(REDIS_OF_THE_RUN, `${title} [redis engine]`, () => suite('redis'));
}

export interface RawResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly json: unknown;
}

/** A plain HTTP call with the Standard token unless `token` is given (null sends none). */
export async function call(server: KvRestServer, path: string, init: RequestInit & { token?: string | null } = {}): Promise<RawResponse> {
  const headers = new Headers(init.headers);
  const token = init.token === undefined ? server.token : init.token;
  if (token !== null) headers.set('authorization', `Bearer ${token}`);
  const response = await fetch(`${server.url}${path}`, { ...init, headers });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

export const postJson = (server: KvRestServer, path: string, body: unknown, init: RequestInit & { token?: string | null } = {}): Promise<RawResponse> =>
  call(server, path, { ...init, method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) } });

/**
 * For the enclosing `describe`: a throwaway redis-server (started with `redisArgs`) and a key-value
 * server on the redis engine in front of it, both stopped after the suite.
 */
export function useRedisEngineServer(options: KvRestServerOptions = {}, redisArgs: readonly string[] = []): { readonly redis: ThrowawayRedisServer; readonly server: KvRestServer } {
  const context = {} as { redis: ThrowawayRedisServer; server: KvRestServer };
  beforeAll(async () => {
    context.redis = await ThrowawayRedisServer.start(redisArgs);
    context.server = await startKvRestServer({ ...options, engine: 'redis', redisUrl: context.redis.url });
  });
  afterAll(async () => {
    await context.server?.close();
    await context.redis?.remove();
  });
  return context;
}

/** What starting the server with `options` came to: its error's words, or `started` (then it is closed). */
export const startOutcome = (options: KvRestServerOptions): Promise<string> =>
  startKvRestServer(options).then(
    async (server) => {
      await server.close();
      return 'started';
    },
    (failure: Error) => `${failure.name}: ${failure.message}`,
  );
