// Child process: the key-value REST servers under test (memory engine, and redis engine when a
// redis-server URL is given), each behind an engine wrapper that counts store calls, and the memory
// engine's server again behind a TLS terminator and once more serving TLS itself (when openssl can
// make their throwaway certificates): the https paths Upstash users run (issue 36). Its CPU time is
// its own, apart from the app's and the load generator's; the terminator's is in it.
import { startKvRestServer, type Engine } from '../mock';
import { createMemoryEngine } from '../mock/kv-rest/memory';
import { createRedisEngine } from '../mock/kv-rest/redis';
import { reportStartFailure, serveCalls } from '../tests/fixtures/child-protocol';
import { onPath } from '../tests/fixtures/installed-programs';
import { ThrowawayCertificates } from '../tests/fixtures/throwaway-tls';
import { startTlsTerminator } from '../tests/fixtures/tls-terminator';

/** Round trips (HTTP requests that reached the engine) and the commands in them. */
export interface EngineCounts {
  calls: number;
  commands: number;
  /** Of the commands, the scripts the client sent, where a script's own commands count too (the redis-server's INFO). */
  scripts?: number;
}

export interface StoreEndpoint {
  readonly url: string;
  readonly token: string;
}

export interface StoreReady {
  readonly memory: StoreEndpoint;
  readonly redis?: StoreEndpoint;
  /** The memory engine's server behind the TLS terminator: an https url naming its throwaway CA as `?tlsCa=`. */
  readonly memoryOverTls?: StoreEndpoint;
  /** The memory engine (the same one) served by a key-value server with TLS of its own (`tlsCertFile`): an https url naming the CA as `?tlsCa=`. */
  readonly memoryWithOwnTls?: StoreEndpoint;
}

export interface StoreUsage {
  readonly cpuMicros: number;
  readonly memory: EngineCounts;
  readonly redis?: EngineCounts;
}

/** The engine with a count of what reaches it; every `execute` is one HTTP request of a client. */
function counting(engine: Engine): { engine: Engine; counts: EngineCounts } {
  const counts: EngineCounts = { calls: 0, commands: 0 };
  return {
    counts,
    engine: {
      name: engine.name,
      execute(commands, options) {
        counts.calls += 1;
        counts.commands += commands.length;
        return engine.execute(commands, options);
      },
      ready: () => engine.ready(),
      countToday: (count, limit) => engine.countToday(count, limit),
      authenticate: (user, password) => engine.authenticate(user, password),
      subscribe: (mode, targets, listener, caller) => engine.subscribe(mode, targets, listener, caller),
      monitor: (onLine, caller) => engine.monitor(onLine, caller),
      close: () => engine.close(),
    },
  };
}

async function main(): Promise<void> {
  const redisUrl = process.argv[2];
  // As startKvRestServer (and so `npx strapi-plugin-ratelimit kv`) runs it: the calls of a turn batched.
  const memory = counting(createMemoryEngine({ runAtEndOfTurn: true }));
  const memoryServer = await startKvRestServer({ engine: memory.engine });
  const redis = redisUrl ? counting(createRedisEngine({ url: redisUrl })) : undefined;
  const redisServer = redis ? await startKvRestServer({ engine: redis.engine }) : undefined;
  const certificates = onPath('openssl') ? await ThrowawayCertificates.create() : undefined;
  const terminator = certificates && (await startTlsTerminator(memoryServer.url, certificates));
  const endpoint = (server: { url: string; token: string }): StoreEndpoint => ({ url: server.url, token: server.token });
  const trustingTheCa = (server: { url: string; token: string }): StoreEndpoint => ({ url: `${server.url}?tlsCa=${encodeURIComponent(certificates!.caFile)}`, token: server.token });
  const memoryOverTls = terminator && trustingTheCa({ url: terminator.url, token: memoryServer.token });
  // The same engine and tokens, so its rows count what the terminator's do.
  const ownTlsServer =
    certificates &&
    (await startKvRestServer({ engine: memory.engine, token: memoryServer.token, readonlyToken: memoryServer.readonlyToken, tlsCertFile: certificates.certFile, tlsKeyFile: certificates.keyFile }));
  const memoryWithOwnTls = ownTlsServer && trustingTheCa(ownTlsServer);
  serveCalls(
    { memory: endpoint(memoryServer), redis: redisServer && endpoint(redisServer), memoryOverTls, memoryWithOwnTls } satisfies StoreReady,
    {
      usage: (): StoreUsage => {
        const cpu = process.cpuUsage();
        return { cpuMicros: cpu.user + cpu.system, memory: { ...memory.counts }, redis: redis && { ...redis.counts } };
      },
    },
    async () => certificates?.remove(),
  );
}

main().catch(reportStartFailure);
