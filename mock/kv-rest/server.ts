// Starts the key-value REST server: an Upstash-compatible Redis REST API on an engine of choice,
// for local development and tests. `startKvRestServer()` with no options is ready to use.
import { checkWholeNumbers, CONNECTION_BOUND_NAMES } from '../http-kit/check-bounds';
import { closeBoundedServer, CONNECTION_BOUNDS_DEFAULTS, createBoundedServer } from '../http-kit/bounded-server';
import { listen } from '../http-kit/listen';
import { readTlsIdentity, type TlsFileOptions } from '../http-kit/tls-identity';
import { withDefaults } from '../http-kit/with-defaults';
import type { Engine } from './engine';
import { CommandRunner } from './http/command-runner';
import { RequestLimits } from './http/limits';
import { RequestHandler } from './http/request-handler';
import { generateToken, TokenRegistry } from './http/tokens';
import { createMemoryEngine } from './memory';
import { createRedisEngine } from './redis';

export interface KvRestServerOptions extends TlsFileOptions {
  /** Interface to bind; loopback by default so a development token never reaches the network. */
  host?: string;
  /** TCP port; 0 (the default) picks a free one. */
  port?: number;
  /** Standard token (full rights); random when absent. */
  token?: string;
  /** Read Only token (reads only, no KEYS/SCAN); random when absent. */
  readonlyToken?: string;
  /** Header prefix: `Upstash` (default, what real clients send) or `Svc` (the seed's literal names). */
  prefix?: string;
  /** Largest command, in bytes of its arguments (default 10 MiB); request bodies may be up to 4 times this. */
  maxRequestBytes?: number;
  /** Commands accepted per UTC day; 0 (the default) means unlimited. */
  dailyLimit?: number;
  /** Largest response, in bytes of its strings (default 64 MiB); a pipeline asking for more gets a 400. */
  maxResponseBytes?: number;
  /** Largest response, in array items at every depth (default 1,000,000); a pipeline asking for more gets a 400. */
  maxResponseElements?: number;
  /** Unsent output of one /subscribe or /monitor stream past which its client is disconnected (default 32 MiB, Redis's pub/sub hard limit). */
  maxStreamBufferBytes?: number;
  /** Longest wait for a request's headers (default 10000 ms); then 408 and the connection closes. */
  headersTimeoutMs?: number;
  /** Longest wait for a whole request, body included (default 30000 ms); then 408 and the connection closes. */
  requestTimeoutMs?: number;
  /** Open connections at most (default 10000, Redis's maxclients); connections past it are closed at once. */
  maxConnections?: number;
  /** After a 413, longest the rest of the body is read and thrown away so the client sees the answer (default 5000 ms); then the connection is destroyed. */
  lingerTimeoutMs?: number;
  /** After a 413, most bytes of the rest of the body read and thrown away (default 64 MiB); past it the connection is destroyed. */
  maxLingerBytes?: number;
  /** `memory` (default, embedded), `redis` (a real redis-server at `redisUrl`) or an engine instance. */
  engine?: 'memory' | 'redis' | Engine;
  /** The redis engine's server: `redis://[user:password@]host:port/db` (default redis://127.0.0.1:6379/0). */
  redisUrl?: string;
  /** Redis engine: the database where it keeps the daily count and script texts, never the served one (default 15). */
  redisPrivateDb?: number;
  /** Redis engine: longest wait for redis-server to connect or answer, streams included (default 2000 ms). */
  redisTimeoutMs?: number;
  /** Memory engine: longest a Lua script may run before it is stopped with a BUSY error (default 5000 ms). */
  scriptTimeLimitMs?: number;
}

export interface KvRestServer {
  /** Base URL, e.g. `http://127.0.0.1:41234` (`https://` with `tlsCertFile` and `tlsKeyFile`). */
  readonly url: string;
  readonly token: string;
  readonly readonlyToken: string;
  readonly engine: Engine;
  close(): Promise<void>;
}

export const KV_REST_DEFAULTS = {
  host: '127.0.0.1',
  port: 0,
  prefix: 'Upstash',
  maxRequestBytes: 10 * 1024 * 1024,
  dailyLimit: 0,
  maxResponseBytes: 64 * 1024 * 1024,
  maxResponseElements: 1_000_000,
  maxStreamBufferBytes: 32 * 1024 * 1024,
  ...CONNECTION_BOUNDS_DEFAULTS,
} as const;

export async function startKvRestServer(options: KvRestServerOptions = {}): Promise<KvRestServer> {
  checkWholeNumbers('key-value server', options, CONNECTION_BOUND_NAMES);
  const settings = withDefaults(KV_REST_DEFAULTS, options);
  const tls = readTlsIdentity('key-value server', options);
  const token = options.token ?? generateToken();
  const readonlyToken = options.readonlyToken ?? generateToken();
  if (token === readonlyToken) throw new Error('The Standard token and the Read Only token must differ');
  const engine =
    typeof options.engine === 'object'
      ? options.engine
      : options.engine === 'redis'
        ? createRedisEngine({ url: options.redisUrl, commandTimeoutMs: options.redisTimeoutMs, privateDb: options.redisPrivateDb, sharedSecret: token })
        : createMemoryEngine({ scriptTimeLimitMs: options.scriptTimeLimitMs, runAtEndOfTurn: true });
  // Nothing listens before the engine can serve: no ready line for a server that would only answer errors.
  await engine.ready().catch(async (failure: unknown) => {
    if (engine !== options.engine) await engine.close();
    throw failure;
  });
  const tokens = new TokenRegistry(token, readonlyToken);
  const limits = new RequestLimits(
    { maxRequestBytes: settings.maxRequestBytes, dailyLimit: settings.dailyLimit, maxResponseBytes: settings.maxResponseBytes, maxResponseElements: settings.maxResponseElements },
    engine,
  );
  const handler = new RequestHandler(engine, new CommandRunner(engine, tokens, limits), tokens, {
    prefix: settings.prefix,
    maxBodyBytes: settings.maxRequestBytes * 4,
    maxStreamBufferBytes: settings.maxStreamBufferBytes,
    linger: settings,
  });
  const server = createBoundedServer(settings, 'ERR ', handler.handle, tls);
  const address = await listen(server, settings.port, settings.host);
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `${tls ? 'https' : 'http'}://${host}:${address.port}`,
    token,
    readonlyToken,
    engine,
    async close() {
      await handler.streams.closeAll();
      await closeBoundedServer(server);
      await engine.close();
    },
  };
}
