// Child process of `npm run bench:instructions -- --kv` (kv-instructions.ts), run under callgrind:
// one key-value REST server, started from its build's `dist/mock` as `npx strapi-plugin-ratelimit kv`
// starts it (memory engine, the turn's calls batched), with its memory engine answering each call as
// it comes, or reached over TLS (serving it itself, or behind the TLS terminator in this same
// process, as the store process of `npm run bench` runs it; throwaway certificates); the requests come from a client process of its own (kv-request-client.ts: the plugin,
// one decision per turn), not counted. Like decision-instructions-process.ts: warmed up
// uninstrumented, then the requests between two marks (instruction-marks.ts), no garbage collection
// forced (its collections are the server's own), and exit. One server per process: two builds' memory engines cannot share
// one (each patches the one Lua VM module, fengari, as it loads).
import { fork } from 'node:child_process';
import path from 'node:path';
import { ThrowawayCertificates } from '../tests/fixtures/throwaway-tls';
import { startTlsTerminator } from '../tests/fixtures/tls-terminator';
import { instrumentFromHere, markInstructions } from './instruction-marks';
import type { KvClientAsk } from './kv-request-client';

/** One server of a round. */
export interface KvServerRow {
  /** A checkout whose `dist/` holds the server's build. */
  readonly root: string;
  /** Its memory engine answers each call as it comes, where the server batches a turn's calls. */
  readonly eachCallAsItComes?: boolean;
  /** Reached over TLS: the server's own (`tlsCertFile`), or the TLS terminator's in front of it. */
  readonly tls?: 'its own' | 'terminator';
}

export interface KvServerRun {
  readonly server: KvServerRow;
  readonly warmUp: number;
  readonly requests: number;
}

/** The server's url (naming the CA as `?tlsCa=` over TLS) and token, and what to remove when the run ends. */
interface Started {
  readonly url: string;
  readonly token: string;
  readonly remove?: () => void;
}

async function start(row: KvServerRow): Promise<Started> {
  const mock = require(path.join(row.root, 'dist/mock')) as typeof import('../mock');
  if (row.eachCallAsItComes) {
    const memory = require(path.join(row.root, 'dist/mock/kv-rest/memory')) as typeof import('../mock/kv-rest/memory');
    return mock.startKvRestServer({ engine: memory.createMemoryEngine() });
  }
  if (row.tls === undefined) return mock.startKvRestServer();
  const certificates = await ThrowawayCertificates.create();
  const trusting = (url: string, token: string): Started => ({ url: `${url}?tlsCa=${encodeURIComponent(certificates.caFile)}`, token, remove: () => certificates.remove() });
  if (row.tls === 'its own') {
    const server = await mock.startKvRestServer({ tlsCertFile: certificates.certFile, tlsKeyFile: certificates.keyFile });
    return trusting(server.url, server.token);
  }
  const server = await mock.startKvRestServer();
  return trusting((await startTlsTerminator(server.url, certificates)).url, server.token);
}

async function main(): Promise<void> {
  const run = JSON.parse(process.argv[2]) as KvServerRun;
  const server = await start(run.server);
  // Its own stdout and stdin stay apart from this process's, which instrumentFromHere speaks on.
  const client = fork(path.join(__dirname, 'kv-request-client.js'), { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], execArgv: [] });
  client.once('exit', (code) => {
    if (code !== 0) process.exit(1);
  });
  const send = (decisions: number) =>
    new Promise<void>((resolve) => {
      client.once('message', () => resolve());
      client.send({ url: server.url, token: server.token, decisions } satisfies KvClientAsk);
    });
  await send(run.warmUp);
  await instrumentFromHere();
  markInstructions();
  await send(run.requests);
  markInstructions();
  server.remove?.();
  process.exit(0);
}

main().catch((failure: unknown) => {
  console.error(failure);
  process.exit(1);
});
