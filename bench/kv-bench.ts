// The key-value REST server alone: GET, SET, EVALSHA of @upstash/ratelimit's sliding window and a
// 10-command /pipeline, against the memory engine, the redis engine and webdis (on the same
// redis-server), plus redis-benchmark over RESP for reference. Ratios are against webdis GET. The
// memory engine also runs the sliding window as a text it does not know natively (one more line),
// so its Lua path is measured beside the native one.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import Redis from 'ioredis';
import type { Timing } from './app-bench';
import { runLoad, CONNECTIONS, type LoadOptions } from './load';
import type { NodeChild } from '../tests/fixtures/node-child';
import { processCpuMicros } from './processes';
import type { Service } from './services';
import { captureSlidingWindowCall } from './sliding-window-script';
import type { StoreEndpoint, StoreReady, StoreUsage } from './store-process';
import { cell, markdownTable, medianOf, pairedByRound } from './table';
import { HIGH } from './scenarios';
import { scriptForRedis70, scriptSha } from '../shared/script-shebang';

export const KV_OPERATIONS = ['GET', 'SET', 'EVALSHA sliding-window', 'EVALSHA sliding-window on Lua', 'pipeline of 10'] as const;
export type KvOperation = (typeof KV_OPERATIONS)[number];

const KEY = 'bench-kv-key';

/** One server under test: how to send each operation (undefined: it cannot), and the CPU it spends. */
export interface KvTarget {
  readonly name: string;
  readonly requests: Readonly<Record<KvOperation, Omit<LoadOptions, 'seconds'> | undefined>>;
  /** CPU time so far of the processes serving this target. */
  cpuMicros(): Promise<number | undefined>;
}

export interface KvSample {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly serverCpuMicrosPerRequest?: number;
  readonly failures: number;
}

/** The sliding window's text with a line added: a script the memory engine does not know, so it runs on Lua. */
const scriptOnLua = (script: string): string => `${script}-- not a text the memory engine runs natively\n`;

/**
 * Upstash REST on one of our engines: path form for GET/SET, JSON bodies as @upstash/redis sends
 * them; `evalshaOnLua` only for the memory engine (elsewhere every script runs on Lua).
 */
function restRequests(store: StoreEndpoint, evalsha: readonly string[], evalshaOnLua: readonly string[] | undefined): KvTarget['requests'] {
  const headers = { authorization: `Bearer ${store.token}`, 'content-type': 'application/json' };
  const post = (path: string, body: unknown) => ({ url: `${store.url}${path}`, method: 'POST' as const, headers, body: JSON.stringify(body) });
  const pipeline = Array.from({ length: 5 }, (_, index) => [['SET', `${KEY}:${index}`, 'value'], ['GET', `${KEY}:${index}`]]).flat();
  return {
    GET: { url: `${store.url}/get/${KEY}`, headers },
    SET: { url: `${store.url}/set/${KEY}/value`, headers },
    'EVALSHA sliding-window': post('/', evalsha),
    'EVALSHA sliding-window on Lua': evalshaOnLua && post('/', evalshaOnLua),
    'pipeline of 10': post('/pipeline', pipeline),
  };
}

export interface KvTargetsInput {
  readonly store: NodeChild<StoreReady>;
  readonly redis?: Service;
  readonly webdis?: Service;
}

/** Prepares every target (the key, the script) and describes how to load each. */
export async function prepareKvTargets({ store, redis, webdis }: KvTargetsInput): Promise<KvTarget[]> {
  const call = await captureSlidingWindowCall(HIGH);
  const evalsha = ['EVALSHA', call.sha, ...call.rest];
  const evalshaOnLua = ['EVALSHA', scriptSha(scriptOnLua(call.script)), ...call.rest];
  const storeCpu = async (withRedis: boolean) => {
    const usage = await store.calls.call<StoreUsage>('usage');
    const redisMicros = withRedis && redis ? processCpuMicros(redis.pid) : 0;
    return redisMicros === undefined ? undefined : usage.cpuMicros + redisMicros;
  };
  const engines: [string, StoreEndpoint | undefined, boolean][] = [
    ['memory engine', store.ready.memory, false],
    ['redis engine', store.ready.redis, true],
  ];
  const memoryOnly = (name: string) => name === 'memory engine';
  const targets: KvTarget[] = [];
  for (const [name, endpoint, withRedis] of engines) {
    if (!endpoint) continue;
    const scripts = memoryOnly(name) ? [call.script, scriptOnLua(call.script)] : [call.script];
    for (const command of [['SET', KEY, 'value'], ...scripts.map((script) => ['SCRIPT', 'LOAD', script])]) {
      const response = await fetch(endpoint.url, { method: 'POST', headers: { authorization: `Bearer ${endpoint.token}` }, body: JSON.stringify(command) });
      if (!response.ok) throw new Error(`${name}: ${command[0]} answered ${response.status} ${await response.text()}`);
    }
    targets.push({ name, requests: restRequests(endpoint, evalsha, memoryOnly(name) ? evalshaOnLua : undefined), cpuMicros: () => storeCpu(withRedis) });
  }
  if (redis && webdis) {
    // Redis 7.0 refuses the script's `allow-key-locking` flag: webdis runs the text our redis engine sends instead.
    const client = new Redis(redis.url);
    const script70 = scriptForRedis70(call.script);
    await client.set(KEY, 'value');
    await client.script('LOAD', script70);
    client.disconnect();
    const path = (args: readonly string[]) => `${webdis.url}/${args.map(encodeURIComponent).join('/')}`;
    targets.push({
      name: 'webdis',
      requests: {
        GET: { url: path(['GET', KEY]) },
        SET: { url: path(['SET', KEY, 'value']) },
        'EVALSHA sliding-window': { url: path(['EVALSHA', scriptSha(script70), ...call.rest]) },
        'EVALSHA sliding-window on Lua': undefined,
        'pipeline of 10': undefined,
      },
      cpuMicros: async () => {
        const [webdisMicros, redisMicros] = [processCpuMicros(webdis.pid), processCpuMicros(redis.pid)];
        return webdisMicros === undefined || redisMicros === undefined ? undefined : webdisMicros + redisMicros;
      },
    });
  }
  for (const target of targets) await checkTarget(target);
  return targets;
}

/** One request of each operation, answered without an error (webdis answers errors with 200 `[false, "..."]`). */
async function checkTarget(target: KvTarget): Promise<void> {
  for (const operation of KV_OPERATIONS) {
    const request = target.requests[operation];
    if (!request) continue;
    const response = await fetch(request.url, { method: request.method ?? 'GET', headers: request.headers, body: request.body });
    const text = await response.text();
    if (!response.ok || text.includes('"error"') || text.includes('[false,')) throw new Error(`${target.name} ${operation} answered ${response.status} ${text.slice(0, 200)}`);
  }
}

export async function measureKvOperation(target: KvTarget, operation: KvOperation, timing: Timing): Promise<KvSample | undefined> {
  const request = target.requests[operation];
  if (!request) return undefined;
  await runLoad({ ...request, seconds: timing.warmupSeconds });
  const before = await target.cpuMicros();
  const result = await runLoad({ ...request, seconds: timing.seconds });
  const after = await target.cpuMicros();
  return {
    requestsPerSecond: result.requestsPerSecond,
    p50Ms: result.p50Ms,
    p99Ms: result.p99Ms,
    serverCpuMicrosPerRequest: before === undefined || after === undefined || result.requests === 0 ? undefined : (after - before) / result.requests,
    failures: result.non2xx + result.errors,
  };
}

export interface RedisBenchmarkSample {
  readonly operation: string;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
}

/** `redis-benchmark -q -t get,set` over RESP on the same redis-server: what Redis itself serves. */
export async function runRedisBenchmark(redis: Service, requests: number): Promise<RedisBenchmarkSample[]> {
  const { stdout } = await promisify(execFile)('redis-benchmark', ['-h', '127.0.0.1', '-p', String(redis.port), '-q', '-t', 'get,set', '-c', String(CONNECTIONS), '-n', String(requests)]);
  // `-q` prints `SET: 98039.22 requests per second, p50=0.255 msec` (after \r progress lines).
  return [...stdout.matchAll(/([A-Z]+): ([\d.]+) requests per second, p50=([\d.]+) msec/g)].map((match) => ({
    operation: match[1],
    requestsPerSecond: Number(match[2]),
    p50Ms: Number(match[3]),
  }));
}

export type KvSamples = ReadonlyMap<string, readonly (KvSample | undefined)[]>;

export const kvSampleKey = (target: string, operation: KvOperation): string => `${target}\n${operation}`;

/** One server and operation over the rounds: medians, and the ratio to webdis GET of the same round. */
export interface KvSummary {
  readonly target: string;
  readonly operation: string;
  readonly requestsPerSecond?: number;
  readonly vsWebdisGet?: number;
  readonly p50Ms?: number;
  readonly p99Ms?: number;
  readonly serverCpuMicrosPerRequest?: number;
  readonly failures?: number;
}

export function summariseKv(targets: readonly KvTarget[], samples: KvSamples): KvSummary[] {
  const baseline = samples.get(kvSampleKey('webdis', 'GET')) ?? [];
  return targets.flatMap((target) =>
    KV_OPERATIONS.map((operation) => {
      const own = samples.get(kvSampleKey(target.name, operation)) ?? [];
      const measured = own.filter((sample): sample is KvSample => sample !== undefined);
      const paired = pairedByRound(own, baseline);
      return {
        target: target.name,
        operation,
        requestsPerSecond: medianOf(measured, (sample) => sample.requestsPerSecond),
        vsWebdisGet: medianOf(paired, ({ sample, base }) => sample.requestsPerSecond / base.requestsPerSecond),
        p50Ms: medianOf(measured, (sample) => sample.p50Ms),
        p99Ms: medianOf(measured, (sample) => sample.p99Ms),
        serverCpuMicrosPerRequest: medianOf(measured, (sample) => sample.serverCpuMicrosPerRequest),
        failures: medianOf(measured, (sample) => sample.failures),
      };
    }),
  );
}

/** What the columns mean, printed under the table. */
export const KV_LEGEND = [
  '- GET and SET in the path form (`/get/<key>`, webdis `/GET/<key>`); EVALSHA as the JSON body @upstash/ratelimit sends (webdis: its URL form, with the script as Redis 7.0 takes it); pipeline: 5 SET + 5 GET in one `/pipeline` request (webdis has none).',
  '- EVALSHA sliding-window: the memory engine runs the pinned library\'s scripts natively; "on Lua" is the same script with one more line, a text it does not know, so fengari runs it (the memory engine only).',
  '- server CPU: the key-value REST server process, plus the redis-server behind the redis engine and webdis (and webdis itself).',
  '- redis-benchmark: `redis-benchmark -q -t get,set -c 50` on the same redis-server, over RESP: what Redis serves without HTTP.',
].join('\n');

export function kvTable(summaries: readonly KvSummary[], reference: readonly RedisBenchmarkSample[][]): string {
  const header = ['server', 'operation', 'req/s', 'vs webdis GET', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'failed'];
  // NaN: the server cannot do it (webdis has no pipeline endpoint), or there was no webdis to compare with.
  const measuredCell = (value: number | undefined, digits: number) => cell(value ?? Number.NaN, digits);
  const rows = summaries.map((summary) => [
    summary.target,
    summary.operation,
    measuredCell(summary.requestsPerSecond, 0),
    measuredCell(summary.vsWebdisGet, 2),
    measuredCell(summary.p50Ms, 1),
    measuredCell(summary.p99Ms, 1),
    measuredCell(summary.serverCpuMicrosPerRequest, 1),
    measuredCell(summary.failures, 0),
  ]);
  const referenceRows = (reference[0] ?? []).map(({ operation }) => {
    const values = reference.flatMap((round) => round.filter((sample) => sample.operation === operation));
    return ['redis-benchmark (RESP)', operation, cell(medianOf(values, (sample) => sample.requestsPerSecond)), '—', cell(medianOf(values, (sample) => sample.p50Ms), 2), '—', '—', '—'];
  });
  return markdownTable(header, [...rows, ...referenceRows]);
}
