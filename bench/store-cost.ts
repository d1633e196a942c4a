// What a limiter costs its store per request, measured where the store is: the commands that reached
// it and the calls that carried them, and the redis-server's CPU time. Pure: the counting itself
// happens in the store process (store-process.ts), the app child (embedded-store-meter.ts) or from the
// redis-server's INFO (the peer, the plugin over redis://); this file reads those counts and turns
// them into the table's cell.
import type { LimiterSpec } from './scenarios';
import type { EngineCounts } from './store-process';
import { cell, median } from './table';

/**
 * How the calls reach the store: `http`, one HTTP request each (the key-value REST server);
 * `in-process`, a function call each (the embedded store: no round trip at all); `redis reads`, the
 * redis-server's read events (the peer's ioredis connection, which like a /pipeline can carry the
 * commands of several requests in one read; the plugin over redis:// talks to it the same way).
 */
export type StoreTransport = 'http' | 'in-process' | 'redis reads';

/** The store whose commands a scenario's row counts, and how; undefined where no store is counted. */
export function storeTransportOf(spec: LimiterSpec): StoreTransport | undefined {
  if (spec.kind === 'plugin') return spec.store === 'embedded' ? 'in-process' : spec.store === 'redis url' ? 'redis reads' : 'http';
  if (spec.kind === 'rate-limiter-flexible' && spec.store === 'redis') return 'redis reads';
  return undefined;
}

/** Commands in one request of a client to the REST API: one for `POST /`, the array's length for `/pipeline` and `/multi-exec`. */
export function commandsInRequest(path: readonly string[] | undefined, body: unknown): number {
  const route = path?.join('/') ?? '';
  return route === '' ? 1 : Array.isArray(body) ? body.length : 0;
}

/** The commands that run a script: commandstats counts each of them and then every command the script runs. */
const SCRIPT_COMMANDS = new Set(['eval', 'evalsha', 'eval_ro', 'evalsha_ro', 'fcall', 'fcall_ro']);

/**
 * The counts in a redis-server's `INFO commandstats` and `INFO stats` text: every command's calls
 * except INFO's own (the bench's reading), scripts' own commands included, the scripts among them,
 * and the read events it processed.
 */
export function redisCountsFromInfo(info: string): EngineCounts {
  let commands = 0;
  let scripts = 0;
  let calls = Number.NaN;
  for (const line of info.split('\r\n')) {
    const stat = /^cmdstat_([a-z|_-]+):calls=(\d+),/.exec(line);
    if (stat && stat[1] !== 'info') commands += Number(stat[2]);
    if (stat && SCRIPT_COMMANDS.has(stat[1])) scripts += Number(stat[2]);
    const reads = /^total_reads_processed:(\d+)$/.exec(line);
    if (reads) calls = Number(reads[1]);
  }
  return { calls, commands, scripts };
}

/**
 * The redis-server's CPU time (user + system, every thread: getrusage) from its `INFO cpu` text, in
 * microseconds. INFO gives it to the microsecond, where /proc's clock ticks of 10 ms would be 1.7 µs
 * per request over the fixed-rate run's 6,000 requests, a tenth of what Redis spends on one.
 */
export function redisCpuMicrosFromInfo(info: string): number {
  const seconds = (field: string) => Number(new RegExp(`^${field}:([0-9.]+)`, 'm').exec(info)?.[1] ?? Number.NaN);
  return Math.round((seconds('used_cpu_user') + seconds('used_cpu_sys')) * 1e6);
}

/** What reached the store between two readings of its counts; `overhead` is what taking the second reading itself added. */
export function countsBetween(before: EngineCounts | undefined, after: EngineCounts | undefined, overhead: EngineCounts = { calls: 0, commands: 0 }): EngineCounts | undefined {
  if (!before || !after) return undefined;
  const between = { calls: after.calls - before.calls - overhead.calls, commands: after.commands - before.commands - overhead.commands };
  return before.scripts === undefined || after.scripts === undefined ? between : { ...between, scripts: after.scripts - before.scripts };
}

export interface StoreCost {
  /** Calls (HTTP requests, in-process calls or redis reads) over the measured run, and per request served. */
  readonly calls: number;
  readonly callsPerRequest: number;
  readonly commandsPerRequest: number;
  /** Of the commands, the scripts sent, where the store counts a script's own commands too (redis reads). */
  readonly scriptsPerRequest?: number;
}

/** A run's counts per request served; undefined without counts or requests. */
export function storeCostPerRequest(counts: EngineCounts | undefined, requests: number): StoreCost | undefined {
  if (!counts || requests === 0) return undefined;
  const cost = { calls: counts.calls, callsPerRequest: counts.calls / requests, commandsPerRequest: counts.commands / requests };
  return counts.scripts === undefined ? cost : { ...cost, scriptsPerRequest: counts.scripts / requests };
}

/** The median of each field over the rounds that measured one; undefined when none did. */
export function medianStoreCost(costs: readonly (StoreCost | undefined)[]): StoreCost | undefined {
  const measured = costs.filter((cost): cost is StoreCost => cost !== undefined);
  if (measured.length === 0) return undefined;
  const of = (field: (cost: StoreCost) => number) => median(measured.map(field));
  const medians = { calls: of((cost) => cost.calls), callsPerRequest: of((cost) => cost.callsPerRequest), commandsPerRequest: of((cost) => cost.commandsPerRequest) };
  const scripts = measured.flatMap((cost) => (cost.scriptsPerRequest === undefined ? [] : [cost.scriptsPerRequest]));
  return scripts.length === 0 ? medians : { ...medians, scriptsPerRequest: median(scripts) };
}

/**
 * The table's cell: `2.00 (1.00 HTTP)`, `2.00 (2.00 in-process, 0 HTTP)`, `4.00 (0.31 redis reads)`,
 * with the scripts among Redis's count where it has them: `8.00, 2.00 of them scripts (0.05 redis
 * reads)`; `0` when nothing reached the store.
 */
export function storeCostCell(cost: StoreCost | undefined, transport: StoreTransport | undefined): string {
  if (transport === undefined || cost === undefined) return cell(undefined);
  if (cost.calls === 0) return '0';
  const calls = cell(cost.callsPerRequest, 2);
  const carried = transport === 'http' ? `${calls} HTTP` : transport === 'in-process' ? `${calls} in-process, 0 HTTP` : `${calls} redis reads`;
  const scripts = cost.scriptsPerRequest === undefined ? '' : `, ${cell(cost.scriptsPerRequest, 2)} of them scripts`;
  return `${cell(cost.commandsPerRequest, 2)}${scripts} (${carried})`;
}
