// Child process of `npm run bench:instructions -- --kv` (kv-instructions.ts), run under callgrind:
// one key-value REST server, started from its build's `dist/mock` as `npx strapi-plugin-ratelimit kv`
// starts it (memory engine, the turn's calls batched) or with its memory engine answering each call
// as it comes; the requests come from a client process of its own (kv-request-client.ts: the plugin,
// one decision per turn), not counted. Like decision-instructions-process.ts: warmed up
// uninstrumented, then a full garbage collection and the requests, the parts marked
// (instruction-marks.ts), and exit. One server per process: two builds' memory engines cannot share
// one (each patches the one Lua VM module, fengari, as it loads).
import { fork } from 'node:child_process';
import path from 'node:path';
import { instrumentFromHere, markInstructions } from './instruction-marks';
import type { KvClientAsk } from './kv-request-client';

/** One server of a round. */
export interface KvServerRow {
  /** A checkout whose `dist/` holds the server's build. */
  readonly root: string;
  /** Its memory engine answers each call as it comes, where the server batches a turn's calls. */
  readonly eachCallAsItComes?: boolean;
}

export interface KvServerRun {
  readonly server: KvServerRow;
  readonly warmUp: number;
  readonly requests: number;
}

async function start(row: KvServerRow): Promise<{ url: string; token: string }> {
  const mock = require(path.join(row.root, 'dist/mock')) as typeof import('../mock');
  if (!row.eachCallAsItComes) return mock.startKvRestServer();
  const memory = require(path.join(row.root, 'dist/mock/kv-rest/memory')) as typeof import('../mock/kv-rest/memory');
  return mock.startKvRestServer({ engine: memory.createMemoryEngine() });
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
  globalThis.gc!();
  markInstructions();
  await send(run.requests);
  markInstructions();
  process.exit(0);
}

main().catch((failure: unknown) => {
  console.error(failure);
  process.exit(1);
});
