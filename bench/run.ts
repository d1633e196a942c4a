// `npm run bench`: starts every server it needs on loopback, runs the scenarios in interleaved
// rounds, prints markdown tables (medians) and the targets with their measured ratios, and, in full
// mode, writes bench/RESULTS.md. `--quick`: one short round (Strapi's included, so its scenarios are
// proven to run), a smaller memory scenario; the CI smoke test (no thresholds). `--only <words>`: just
// the app rows whose name or app contains one of the words (separated by `|`), with their baselines
// (e.g. `--only strapi`, `--only 'TLS|rate-limiter-flexible + ioredis'`), and
// none of the other sections; `--only kv`: the key-value server's rows alone (with webdis and
// redis-benchmark beside them), no app. RESULTS.md is left as it is. `--strapi-rate <n>`: the Strapi
// rows' fixed moderate load (default 1,000 requests/s, as Koa's), for a machine where Strapi alone is
// busy most of a core at 1,000: there its own queue sets its p99, and the targets say so (targets.ts).
import { APP_LEGEND, appNotes, appTable, measureAppScenario, summariseApp, type AppSample, type AppSummary, type AppTiming, type FixedRate, type Timing } from './app-bench';
import { KV_LEGEND, kvSampleKey, kvTable, KV_OPERATIONS, measureKvOperation, prepareKvTargets, runRedisBenchmark, summariseKv, type KvSample, type RedisBenchmarkSample } from './kv-bench';
import { latencyLegend, latencyTable } from './latency-table';
import { measureMemory, MEMORY_LEGEND, memoryTable } from './memory';
import { measureOverAdmission, OVER_ADMISSION_LEGEND, overAdmissionTable } from './over-admission';
import { commandOf, progress, runOptions } from './command-line';
import { CONNECTIONS } from './load';
import { forkChild, stopAllProcesses, stopProcessesOnSignals } from './processes';
import { machineDescription, renderReport, writeResults } from './report';
import { APP_SCENARIOS, canRun, roundOrder, selectScenarios, type AppScenario } from './scenarios';
import { onPath, REDIS_SERVER } from '../tests/fixtures/installed-programs';
import { startRedisServer, startWebdis } from './services';
import { targetsTable } from './targets';
import type { StoreEndpoint, StoreReady } from './store-process';

interface Mode {
  readonly rounds: number;
  readonly app: AppTiming;
  /** Strapi runs, with a longer warm-up in full mode (its first thousands of requests are several times slower). */
  readonly strapi: AppTiming;
  readonly kv: Timing;
  readonly fixedRate: FixedRate;
  /**
   * Strapi's rows are timed longer at the fixed load: V8 collects Strapi's 90 MB heap whole every 10
   * to 15 s at that load, and each full collection slows it for 300-500 ms; a 5 s window held one in
   * some rows and none in others (Strapi alone's p99 read 3.4 to 120 ms between runs).
   */
  readonly strapiFixedRateSeconds: number;
  readonly memoryCallers: number;
  readonly redisBenchmarkRequests: number;
  readonly overAdmissionRounds: number;
}

const QUICK: Mode = {
  rounds: 1,
  app: { warmupRequests: 10_000, seconds: 2 },
  strapi: { warmupRequests: 3_000, seconds: 2 },
  kv: { warmupSeconds: 0.5, seconds: 2 },
  fixedRate: { requestsPerSecond: 1000, connections: 20, warmupSeconds: 0.5, seconds: 1 },
  strapiFixedRateSeconds: 1,
  memoryCallers: 100_000,
  redisBenchmarkRequests: 50_000,
  overAdmissionRounds: 1,
};
/**
 * Five interleaved rounds: on a shared machine one round can be disturbed; the median of five holds,
 * and their range says whether a difference stands out of the noise (table.ts).
 */
const FULL: Mode = {
  rounds: 5,
  app: { warmupRequests: 50_000, seconds: 5 },
  strapi: { warmupRequests: 20_000, seconds: 6 },
  kv: { warmupSeconds: 1, seconds: 4 },
  fixedRate: { requestsPerSecond: 1000, connections: 20, warmupSeconds: 1, seconds: 5 },
  strapiFixedRateSeconds: 20,
  memoryCallers: 1_000_000,
  redisBenchmarkRequests: 100_000,
  overAdmissionRounds: 5,
};

async function main(): Promise<void> {
  stopProcessesOnSignals();
  const options = runOptions();
  const { quick, only } = options;
  const mode = quick ? QUICK : FULL;
  const strapiFixedRate: FixedRate = { ...mode.fixedRate, requestsPerSecond: options.strapiRate ?? mode.fixedRate.requestsPerSecond, seconds: mode.strapiFixedRateSeconds };
  const started = new Date();
  const machine = machineDescription();

  const redis = REDIS_SERVER.installed ? await startRedisServer() : undefined;
  const webdis = redis && onPath('webdis') ? await startWebdis(redis.port) : undefined;
  const store = await forkChild<StoreReady>('store-process', redis ? [redis.url] : []);
  progress(`redis-server: ${redis ? redis.url : 'not on PATH, redis scenarios skipped'}; webdis: ${webdis ? webdis.url : 'not started'}; TLS terminator and the key-value server's own TLS: ${store.ready.memoryOverTls ? 'started' : 'openssl not on PATH, the rows over TLS skipped'}`);

  const available = APP_SCENARIOS.filter((scenario) => canRun(scenario, store.ready, redis !== undefined));
  const kvOnly = only === KV_ONLY;
  const scenarios = kvOnly ? [] : only === undefined ? available : selectScenarios(available, only);
  if (scenarios.length === 0 && !kvOnly) throw new Error(`--only ${only}: no scenario's name or app contains it`);
  const appSamples = new Map<AppScenario, AppSample[]>(scenarios.map((scenario) => [scenario, []]));
  const kvTargets = only === undefined || kvOnly ? await prepareKvTargets({ store, redis, webdis }) : [];
  const kvSamples = new Map<string, (KvSample | undefined)[]>();
  const reference: RedisBenchmarkSample[][] = [];

  for (let round = 1; round <= mode.rounds; round++) {
    for (const scenario of roundOrder(scenarios, round)) {
      progress(`round ${round}/${mode.rounds}: ${scenario.name}`);
      const timing = scenario.app === 'koa' ? mode.app : mode.strapi;
      const fixedRate = scenario.app === 'koa' ? mode.fixedRate : strapiFixedRate;
      appSamples.get(scenario)!.push(await measureAppScenario(scenario, { store, redis, timing, fixedRate }));
    }
    for (const target of kvTargets) {
      for (const operation of KV_OPERATIONS) {
        progress(`round ${round}/${mode.rounds}: ${target.name} ${operation}`);
        const key = kvSampleKey(target.name, operation);
        kvSamples.set(key, [...(kvSamples.get(key) ?? []), await measureKvOperation(target, operation, mode.kv)]);
      }
    }
    if (redis && kvTargets.length > 0) reference.push(await runRedisBenchmark(redis, mode.redisBenchmarkRequests));
  }
  const otherSections = only === undefined ? await measureOtherSections(mode, store.ready.memory) : [];

  const minutes = (Date.now() - started.getTime()) / 60_000;
  const app = summariseApp(scenarios, appSamples);
  const kv = summariseKv(kvTargets, kvSamples);
  const notes = appNotes(app);
  const markdown = renderReport({
    command: commandOf('npm run bench', options),
    machine,
    started,
    minutes,
    sections: [
      { title: 'Targets (issues 15, 26, 27, 35 and 36; ratios within this run, reported, not enforced)', body: targetsTable({ scenarios, app: appSamples, kv: kvSamples }) },
      ...(scenarios.length === 0 ? [] : appSections(app, notes, mode, strapiFixedRate)),
      ...(kvTargets.length === 0 ? [] : [{ title: `The key-value REST server alone (${mode.kv.seconds} s per run)`, body: `${kvTable(kv, reference)}\n\n${KV_LEGEND}` }]),
      ...otherSections,
    ],
  });
  console.log(markdown);
  if (!quick && only === undefined) progress(`wrote ${writeResults(markdown)}`);
}

const count = (value: number) => value.toLocaleString('en-US');

/** `--only kv`: the key-value server's rows alone. */
const KV_ONLY = 'kv';

/** The app rows' sections: the table under load and the one at the fixed moderate load. */
function appSections(app: readonly AppSummary[], notes: readonly string[], mode: Mode, strapiFixedRate: FixedRate): { title: string; body: string }[] {
  const strapiRate = `; Strapi's rows ${count(strapiFixedRate.requestsPerSecond)} requests/s for ${strapiFixedRate.seconds} s`;
  return [
    {
      title: `Apps under load (autocannon, ${CONNECTIONS} connections, ${mode.app.seconds} s per run after a warm-up of ${count(mode.app.warmupRequests)} requests (Strapi: ${mode.strapi.seconds} s after ${count(mode.strapi.warmupRequests)}), ${mode.rounds} round(s))`,
      body: [appTable(app), '', APP_LEGEND, ...notes].join('\n'),
    },
    { title: `Latency and app CPU at a fixed moderate load (${count(mode.fixedRate.requestsPerSecond)} requests/s${strapiRate}, ${mode.fixedRate.connections} connections)`, body: `${latencyTable(app)}\n\n${latencyLegend(mode.fixedRate)}` },
  ];
}

/** The sections of a whole run after the rounds: over-admission under CPU load, and memory per caller. */
async function measureOtherSections(mode: Mode, store: StoreEndpoint): Promise<{ title: string; body: string }[]> {
  progress(`over-admission: ${mode.overAdmissionRounds} round(s) of bursts with every core busy`);
  const overAdmission = await measureOverAdmission(store, mode.overAdmissionRounds);
  progress(`memory: ${count(mode.memoryCallers)} callers`);
  const memory = await measureMemory(store, mode.memoryCallers);
  return [
    { title: `Over-admission under CPU load: store timeout vs exact limits (${mode.overAdmissionRounds} round(s))`, body: `${overAdmissionTable(overAdmission)}\n\n${OVER_ADMISSION_LEGEND}` },
    { title: 'Memory: distinct callers through the plugin middleware', body: `${memoryTable(memory)}\n\n${MEMORY_LEGEND}` },
  ];
}

main()
  .catch((failure: unknown) => {
    console.error(failure);
    process.exitCode = 1;
  })
  .finally(() => stopAllProcesses());
