// Child process (node --expose-gc): the memory scenario. Distinct callers, each sending two requests
// through the plugin middleware in-process (real Koa contexts, no sockets) against the memory
// engine, so every caller ends up blocked: the block cache and any per-caller state must stay bounded.
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import Koa from 'koa';
import { createRateLimitMiddleware } from '../server/src';
import { serveCalls } from '../tests/fixtures/child-protocol';
import { IDENTIFIER_HEADER, ROUTE } from './scenarios';
import type { StoreEndpoint } from './store-process';

export interface MemoryInput {
  readonly store: StoreEndpoint;
  readonly callers: number;
}

export interface MemoryResult {
  readonly callers: number;
  readonly seconds: number;
  readonly refused: number;
  /** This process's CPU time over the run (the plugin's side; the store's is apart). */
  readonly cpuMicros: number;
  readonly rssBeforeBytes: number;
  readonly rssAfterBytes: number;
  readonly maxRssBytes: number;
  readonly heapUsedBeforeBytes: number;
  readonly heapUsedAfterGcBytes: number;
}

/**
 * Callers in flight at once, each lane sending its caller's two requests together then taking the
 * next caller: the store always has work queued, and each /pipeline stays well within the timeout.
 */
const LANES = 500;

function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('the memory scenario runs with node --expose-gc');
  gc();
}

async function run(input: MemoryInput): Promise<MemoryResult> {
  const middleware = createRateLimitMiddleware(
    {
      url: input.store.url,
      token: input.store.token,
      timeout: 60_000,
      strategy: [{ methods: ['GET'], path: ROUTE, identifierSource: `header.${IDENTIFIER_HEADER}`, limiter: { algorithm: 'fixed-window', tokens: 1, window: '1h' } }],
    },
    { logger: { info: () => undefined, warn: (message) => console.warn(message) } },
  );
  const app = new Koa();
  const socket = new Socket();
  let refused = 0;
  const request = async (caller: string): Promise<void> => {
    const req = new IncomingMessage(socket);
    Object.assign(req, { method: 'GET', url: ROUTE, headers: { [IDENTIFIER_HEADER]: caller } });
    const ctx = app.createContext(req, new ServerResponse(req));
    await middleware(ctx, async () => undefined);
    if (ctx.status === 429) refused += 1;
  };
  collectGarbage();
  const before = process.memoryUsage();
  const started = process.hrtime.bigint();
  const cpuBefore = process.cpuUsage();
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < input.callers) {
      const caller = `m${next++}`;
      await Promise.all([request(caller), request(caller)]);
    }
  };
  await Promise.all(Array.from({ length: LANES }, lane));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage(cpuBefore);
  collectGarbage();
  const after = process.memoryUsage();
  middleware.close();
  return {
    callers: input.callers,
    seconds,
    refused,
    cpuMicros: cpu.user + cpu.system,
    rssBeforeBytes: before.rss,
    rssAfterBytes: after.rss,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    heapUsedBeforeBytes: before.heapUsed,
    heapUsedAfterGcBytes: after.heapUsed,
  };
}

const input = JSON.parse(process.argv[2]) as MemoryInput;
serveCalls({}, { run: () => run(input) });
