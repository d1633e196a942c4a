// Runs one app scenario (a fresh app child, a warm-up, a measured load run, and for some a run at a
// fixed moderate rate) and turns the rounds into the table: medians, and ratios against the baseline
// of the same app measured in the same round, with the rounds' range and whether it is within noise.
import path from 'node:path';
import Redis from 'ioredis';
import { startStrapiChild } from '../tests/fixtures/strapi-child';
import type { ChildCalls, NodeChild } from '../tests/fixtures/node-child';
import type { AppUsage } from './app-meter';
import { forkChild, tracked } from './processes';
import { runFixedRate } from './fixed-rate-load';
import type { AppChildInput, KoaAppReady } from './koa-app-process';
import { runLoad } from './load';
import { totalCpuPerDecision, type LoadKind } from './decision-cpu';
import { bareRowOf, baselineOf, BENCH_GRAPHQL_CONFIG, IDENTIFIER_HEADER, needsRedis, PING, pluginConfig, type AppScenario, type LimiterSpec } from './scenarios';
import { countsBetween, redisCountsFromInfo, redisCpuMicrosFromInfo, storeCostCell, storeCostPerRequest, storeTransportOf, medianStoreCost, type StoreCost } from './store-cost';
import type { StrapiAppExtra, StrapiAppInput } from './strapi-app-extension';
import type { EngineCounts, StoreReady, StoreUsage } from './store-process';
import { cell, markdownTable, medianOf, pairedByRound, signedCell, spreadCell, spreadOf, type Spread } from './table';

export interface Timing {
  readonly warmupSeconds: number;
  readonly seconds: number;
}

/**
 * An app's warm-up is a number of requests, the same for every row of that app: a warm-up of so many
 * seconds gives the faster row more requests to warm up on (Strapi's first thousands of requests are
 * several times slower than the rest).
 */
export interface AppTiming {
  readonly warmupRequests: number;
  readonly seconds: number;
}

export interface AppBenchContext {
  readonly store: NodeChild<StoreReady>;
  /** The throwaway redis-server, when there is one. */
  readonly redis?: { readonly url: string };
  readonly timing: AppTiming;
  /** The fixed moderate load of the latency rows (scenarios with `latency`). */
  readonly fixedRate: FixedRate;
}

export interface FixedRate {
  readonly requestsPerSecond: number;
  readonly connections: number;
  readonly warmupSeconds: number;
  readonly seconds: number;
}

export interface AppSample {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly appCpuMicrosPerRequest: number;
  /** What reached the store during the measured run (how it travels: store-cost.ts); plugin and peer (redis) scenarios only. */
  readonly storeCost?: StoreCost;
  /** Store outages the plugin reported (it let requests through unlimited meanwhile). */
  readonly storeFailures: number;
  /** The key-value REST server's and the redis-server's CPU per request, where the scenario uses them. */
  readonly storeCpuMicrosPerRequest?: number;
  /** The same at the fixed moderate load, per request sent. */
  readonly fixedRateStoreCpuMicrosPerRequest?: number;
  readonly non2xxShare: number;
  readonly errors: number;
  /** The fixed moderate load's rate in requests per second, latency scenarios only. */
  readonly fixedRatePerSecond?: number;
  /** At the fixed moderate load, latency scenarios only. */
  readonly fixedRateP50Micros?: number;
  readonly fixedRateP99Micros?: number;
  /** The app's CPU per request at the fixed moderate load, where no request waits for another. */
  readonly fixedRateCpuMicrosPerRequest?: number;
  /** What reached the store per request sent at the fixed moderate load, where few requests share a store call. */
  readonly fixedRateStoreCost?: StoreCost;
}

/** The REST server engine a plugin row goes through, if it goes through one (its counts are in the store process's usage; over TLS, the memory engine's). */
function restEngineOf(spec: LimiterSpec): 'memory' | 'redis' | undefined {
  if (spec.kind !== 'plugin') return undefined;
  if (spec.store === 'memory over TLS' || spec.store === 'memory with its own TLS') return 'memory';
  return spec.store === 'memory' || spec.store === 'redis' ? spec.store : undefined;
}

/**
 * A reading of the processes that serve the scenario's store (the KV REST server and/or the
 * redis-server, through `info`, open for every scenario that uses it): their CPU time, and the
 * commands that reached the store with the calls that carried them (the REST server's counting
 * engine; for the peer and the plugin over redis://, the redis-server's INFO). The embedded store and
 * rate-limiter-flexible's Memory store live in the app process: their CPU is the app's.
 */
async function readStore(scenario: AppScenario, context: AppBenchContext, info: Redis | undefined): Promise<{ micros?: number; counts?: EngineCounts }> {
  const transport = storeTransportOf(scenario.limiter);
  if (transport === undefined || transport === 'in-process') return {};
  const engine = restEngineOf(scenario.limiter);
  const usage = engine ? await context.store.calls.call<StoreUsage>('usage') : undefined;
  const redisInfo = info ? String(await info.call('info', 'stats', 'commandstats', 'cpu')) : undefined;
  const counts = engine ? usage?.[engine] : redisInfo === undefined ? undefined : redisCountsFromInfo(redisInfo);
  return { counts, micros: (usage?.cpuMicros ?? 0) + (redisInfo === undefined ? 0 : redisCpuMicrosFromInfo(redisInfo)) };
}

/** The second INFO reading's own read event, counted in it. */
const INFO_READING: EngineCounts = { calls: 1, commands: 0 };

/** An app child of a scenario, ready for load. */
export interface AppUnderLoad {
  readonly url: string;
  /** Headers every request of the load sends: the scenario's credential, if it has one. */
  readonly headers: Readonly<Record<string, string>>;
  readonly calls: ChildCalls;
  stop(): Promise<void>;
}

/**
 * The Koa scenarios in koa-app-process.ts, with Node's `execArgv` if given (`--cpu-prof`: profile.ts);
 * the Strapi ones in the tests' Strapi child, with strapi-app-extension.ts inside it (which places the
 * peer, for the peer's Strapi row).
 */
export async function startApp(scenario: AppScenario, context: Pick<AppBenchContext, 'store' | 'redis'>, execArgv: readonly string[] = []): Promise<AppUnderLoad> {
  if (scenario.app === 'koa') {
    const input: AppChildInput = { scenario, stores: context.store.ready, redisUrl: context.redis?.url };
    const koa = await forkChild<KoaAppReady>('koa-app-process', [JSON.stringify(input)], { execArgv });
    return { url: koa.ready.url, headers: {}, calls: koa.calls, stop: koa.stop };
  }
  const spec = scenario.limiter;
  if (execArgv.length > 0) throw new Error('the Strapi child takes no Node options here');
  if (spec.kind === 'static-refusal' || (spec.kind === 'rate-limiter-flexible' && spec.store !== 'redis')) throw new Error('the Strapi scenarios compare the plugin and the peer on redis-server with no limiter only');
  if (spec.kind === 'rate-limiter-flexible' && !context.redis) throw new Error(`no redis-server for ${scenario.name}`);
  const input: StrapiAppInput = { credential: scenario.credential, peerRedisUrl: spec.kind === 'rate-limiter-flexible' ? context.redis?.url : undefined };
  const strapi = tracked(
    await startStrapiChild<StrapiAppExtra>({
      config: spec.kind === 'plugin' ? pluginConfig(spec, context.store.ready, context.redis?.url) : {},
      pluginEnabled: spec.kind === 'plugin',
      logLevel: 'error',
      ...(scenario.app === 'strapi graphql' ? { graphql: BENCH_GRAPHQL_CONFIG } : {}),
      startTimeoutMs: 180_000,
      extension: { module: path.join(__dirname, 'strapi-app-extension.js'), input },
    }),
  );
  return { url: strapi.url, headers: strapi.extra.headers, calls: strapi.calls, stop: strapi.stop };
}

export async function measureAppScenario(scenario: AppScenario, context: AppBenchContext): Promise<AppSample> {
  const app = await startApp(scenario, context);
  const info = needsRedis(scenario) && context.redis ? new Redis(context.redis.url) : undefined;
  try {
    const request = scenario.request ?? PING;
    const load = { url: `${app.url}${request.path}`, method: request.method, body: request.body, perConnectionHeader: IDENTIFIER_HEADER, headers: { ...app.headers, ...request.headers } };
    await runLoad({ ...load, requests: context.timing.warmupRequests });
    const measure = <T>(run: () => Promise<T>) => measured(scenario, context, app, info, run);
    const { result, appUsage, storeMicros, storeCounts } = await measure(() => runLoad({ ...load, seconds: context.timing.seconds }));
    const storeCost = storeCostPerRequest(storeCounts, result.requests);
    const fixedRatePerSecond = scenario.fixedRatePerSecond ?? context.fixedRate.requestsPerSecond;
    const fixedRate = scenario.latency ? await measure(() => runFixedRate({ ...context.fixedRate, requestsPerSecond: fixedRatePerSecond, url: load.url, method: load.method, body: load.body, headers: load.headers, perConnectionHeader: IDENTIFIER_HEADER })) : undefined;
    const fixedRateSent = fixedRate?.result.sent ?? 0;
    return {
      requestsPerSecond: result.requestsPerSecond,
      p50Ms: result.p50Ms,
      p99Ms: result.p99Ms,
      appCpuMicrosPerRequest: appUsage.cpuMicros / result.requests,
      storeCost,
      storeFailures: appUsage.storeFailures,
      storeCpuMicrosPerRequest: storeMicros === undefined || result.requests === 0 ? undefined : storeMicros / result.requests,
      non2xxShare: result.requests === 0 ? 0 : result.non2xx / result.requests,
      errors: result.errors + (fixedRate?.result.errors ?? 0),
      ...(fixedRate && { fixedRatePerSecond }),
      fixedRateP50Micros: fixedRate?.result.p50Micros,
      fixedRateP99Micros: fixedRate?.result.p99Micros,
      fixedRateCpuMicrosPerRequest: fixedRate && fixedRate.appUsage.cpuMicros / fixedRateSent,
      fixedRateStoreCpuMicrosPerRequest: fixedRate?.storeMicros === undefined ? undefined : fixedRate.storeMicros / fixedRateSent,
      fixedRateStoreCost: fixedRate && storeCostPerRequest(fixedRate.storeCounts, fixedRateSent),
    };
  } finally {
    info?.disconnect();
    await app.stop();
  }
}

/** `run` between the app's `cpu-start` and `cpu-stop` and two readings of the store: the app's usage, and the store's CPU and counts over the span. */
async function measured<T>(scenario: AppScenario, context: AppBenchContext, app: AppUnderLoad, info: Redis | undefined, run: () => Promise<T>): Promise<{ result: T; appUsage: AppUsage; storeMicros?: number; storeCounts?: EngineCounts }> {
  const transport = storeTransportOf(scenario.limiter);
  const before = await readStore(scenario, context, info);
  await app.calls.call('cpu-start');
  const result = await run();
  const appUsage = await app.calls.call<AppUsage>('cpu-stop');
  const after = await readStore(scenario, context, info);
  const storeCounts = transport === 'in-process' ? appUsage.store : countsBetween(before.counts, after.counts, transport === 'redis reads' ? INFO_READING : undefined);
  const storeMicros = before.micros === undefined || after.micros === undefined ? undefined : after.micros - before.micros;
  return { result, appUsage, storeMicros, storeCounts };
}

/** One scenario over its rounds: medians, and paired differences with the baseline of the same round. */
export interface AppSummary {
  readonly scenario: AppScenario;
  /** The row its ratios and differences are taken against (see baselineOf). */
  readonly baseline?: AppScenario;
  readonly requestsPerSecond?: number;
  /** Per round, throughput over the baseline's. */
  readonly vsBaseline?: Spread;
  readonly p50Ms?: number;
  readonly p99Ms?: number;
  readonly appCpuMicrosPerRequest?: number;
  /** Per round, app CPU per request minus the baseline's. */
  readonly cpuOverBaselineMicros?: Spread;
  readonly storeCost?: StoreCost;
  readonly storeCpuMicrosPerRequest?: number;
  /** Per round, the app's CPU per request over bare Koa's plus the store processes' (decision-cpu.ts); for the closed-loop load and the fixed moderate one. */
  readonly totalCpuPerDecision?: Spread;
  readonly fixedRateTotalCpuPerDecision?: Spread;
  readonly non2xxShare?: number;
  readonly errors: number;
  readonly fixedRateP50Micros?: number;
  readonly fixedRateP99Micros?: number;
  readonly fixedRateCpuMicrosPerRequest?: number;
  readonly fixedRateStoreCost?: StoreCost;
  /** Per round, app CPU per request at the fixed rate minus the baseline's. */
  readonly fixedRateCpuOverBaselineMicros?: Spread;
  readonly rounds: number;
  /** Rounds in which the plugin lost its store and let requests through unlimited. */
  readonly storeFailureRounds: number;
}

/** `samples.get(scenario)[round]`. */
export function summariseApp(scenarios: readonly AppScenario[], samples: ReadonlyMap<AppScenario, readonly AppSample[]>): AppSummary[] {
  return scenarios.map((scenario) => {
    const own = samples.get(scenario) ?? [];
    const baseline = baselineOf(scenario, scenarios);
    const paired = pairedByRound(own, baseline ? (samples.get(baseline) ?? []) : []);
    const bare = bareRowOf(scenario, scenarios);
    const totalCpu = (load: LoadKind) => spreadOf(totalCpuPerDecision(scenario, own, bare ? (samples.get(bare) ?? []) : [], load), (micros) => micros);
    const fixedRateCpu = (sample: AppSample) => sample.fixedRateCpuMicrosPerRequest;
    return {
      scenario,
      baseline,
      requestsPerSecond: medianOf(own, (sample) => sample.requestsPerSecond),
      vsBaseline: spreadOf(paired, ({ sample, base }) => sample.requestsPerSecond / base.requestsPerSecond),
      p50Ms: medianOf(own, (sample) => sample.p50Ms),
      p99Ms: medianOf(own, (sample) => sample.p99Ms),
      appCpuMicrosPerRequest: medianOf(own, (sample) => sample.appCpuMicrosPerRequest),
      cpuOverBaselineMicros: spreadOf(paired, ({ sample, base }) => sample.appCpuMicrosPerRequest - base.appCpuMicrosPerRequest),
      storeCost: medianStoreCost(own.map((sample) => sample.storeCost)),
      storeCpuMicrosPerRequest: medianOf(own, (sample) => sample.storeCpuMicrosPerRequest),
      totalCpuPerDecision: totalCpu('closed loop'),
      fixedRateTotalCpuPerDecision: totalCpu('fixed rate'),
      non2xxShare: medianOf(own, (sample) => sample.non2xxShare),
      errors: Math.max(0, ...own.map((sample) => sample.errors)),
      fixedRateP50Micros: medianOf(own, (sample) => sample.fixedRateP50Micros),
      fixedRateP99Micros: medianOf(own, (sample) => sample.fixedRateP99Micros),
      fixedRateCpuMicrosPerRequest: medianOf(own, fixedRateCpu),
      fixedRateStoreCost: medianStoreCost(own.map((sample) => sample.fixedRateStoreCost)),
      fixedRateCpuOverBaselineMicros: spreadOf(paired, ({ sample, base }) => {
        const [mine, theirs] = [fixedRateCpu(sample), fixedRateCpu(base)];
        return mine === undefined || theirs === undefined ? undefined : mine - theirs;
      }),
      rounds: own.length,
      storeFailureRounds: own.filter((sample) => sample.storeFailures > 0).length,
    };
  });
}

export function appTable(summaries: readonly AppSummary[]): string {
  const header = ['scenario', 'req/s', 'vs baseline', 'p50 ms', 'p99 ms', 'app CPU µs/req', 'CPU over baseline µs', 'store commands/req (calls carrying them)', 'store CPU µs/req', 'total CPU per decision µs', 'non-2xx', 'errors'];
  const rows = summaries.map((summary) => [
    summary.scenario.name,
    cell(summary.requestsPerSecond),
    summary.baseline === summary.scenario ? '1.00' : spreadCell(summary.vsBaseline, 2, 1),
    cell(summary.p50Ms, 1),
    cell(summary.p99Ms, 1),
    cell(summary.appCpuMicrosPerRequest, 1),
    summary.baseline === summary.scenario ? '+0.0' : spreadCell(summary.cpuOverBaselineMicros, 1, 0, signedCell),
    storeCostCell(summary.storeCost, storeTransportOf(summary.scenario.limiter)),
    cell(summary.storeCpuMicrosPerRequest, 1),
    spreadCell(summary.totalCpuPerDecision, 1),
    `${cell(100 * (summary.non2xxShare ?? 0))}%`,
    cell(summary.errors),
  ]);
  return markdownTable(header, rows);
}

/** What the columns mean, printed under the table. */
export const APP_LEGEND = [
  '- Each scenario runs in a fresh app process; the load comes from the parent process, one caller (`x-bench-id`) per connection.',
  '- app CPU: user + system time of the app process over the measured run, per completed request; "over baseline" is paired with the no-limiter run of the same app and round.',
  '- Rounds interleave the rows, each round in another order within each app, and every row of an app warms up on the same number of requests. "vs baseline" and "CPU over baseline" are the median of the per-round values and, from three rounds on, their range; "within noise" where that range includes no difference (1.00, or +0): this run cannot tell the row from its baseline.',
  '- Under this closed-loop load (each connection sends its next request when the answer arrives) a plugin that waits for its store answers many requests together (one /pipeline for the commands of concurrent requests): the writes of a burst of answers cost less per request, for the app and for the load generator sharing its cores. A row can then be faster than its baseline without the plugin costing less: the fixed-rate table below, where no request waits for another, shows the plugin\'s own CPU.',
  '- A row named "(vs the ip row)" takes its ratio and CPU over baseline against that row instead: the same requests, each carrying a valid credential, limited by `ip` (no verification) or by `user` (the credential verified per request), so the difference is the verification.',
  '- store commands/req (calls carrying them): counted where the store is, over the measured run, per request served. The plugin on the key-value REST server: commands that reached its engine and the HTTP requests (round trips) carrying them (the plugin batches the commands of concurrent requests into one /pipeline). On the embedded store: commands and the in-process calls carrying them (no HTTP, no round trip). The peer and the plugin over redis://: their commands in the redis-server\'s INFO commandstats, which counts a script (EVALSHA) and every command the script runs, so the cell says how many of them were scripts the client sent, and the server\'s read events (total_reads_processed; one read can carry several requests\' commands). rate-limiter-flexible Memory has no store to count (—).',
  '- Every plugin row runs the plugin\'s defaults, the deny list on (one deny-check command per request, queued with the limit checks), except the rows named "denyList: false"; the rows named "defaults: deny list on" take their ratio and CPU over baseline against their denyList: false row, so those are the deny list\'s cost. The targets compare the plugin with its defaults.',
  '- store CPU: the key-value REST server process, plus the redis-server for the redis engine; the redis-server alone for the plugin over redis:// and rate-limiter-flexible\'s Redis store (its INFO cpu, to the microsecond).',
  '- total CPU per decision: the app\'s CPU per request over bare Koa\'s (or Strapi\'s, no limiter) of the same round, plus the store CPU per request (none where the store lives in the app): what one decision costs the machine, however a limiter splits its work between the app and its store. Median of the rounds, with their range.',
].join('\n');

/** A note when a scenario's answers are not what it expects (every request allowed, or every one refused), given its share of non-2xx answers. */
export function unexpectedAnswerNotes(scenario: AppScenario, non2xxShare: number): string[] {
  if (scenario.expect === 'allowed' && non2xxShare > 0) return [`- ${scenario.name}: ${cell(100 * non2xxShare, 2)}% of the answers were not 2xx, though every request should have been allowed.`];
  if (scenario.expect === 'refused' && non2xxShare < 0.99) return [`- ${scenario.name}: only ${cell(100 * non2xxShare, 2)}% of the answers were refusals, though every caller should have been blocked.`];
  return [];
}

/** What the table cannot show: answers other than the scenario expects, and store outages (fail-open). */
export function appNotes(summaries: readonly AppSummary[]): string[] {
  return summaries.flatMap((summary) => {
    const name = summary.scenario.name;
    const notes = unexpectedAnswerNotes(summary.scenario, summary.non2xxShare ?? 0);
    if (summary.storeFailureRounds > 0) {
      notes.push(`- ${name}: the store did not answer within the plugin's timeout (fail-open, requests let through unlimited) in ${summary.storeFailureRounds} of ${summary.rounds} rounds.`);
    }
    return notes;
  });
}
