// `npm run bench:profile`: where the app's CPU goes in the Koa scenarios of the targets (targets.ts):
// bare Koa, the plugin on the embedded store with and without the deny list, the peer
// (rate-limiter-flexible + ioredis + redis-server), the plugin on the memory engine with and without
// it, three strategies, a blocked caller and Koa's own 429. Each runs once in an app child under
// `node --cpu-prof` (profile-bench.ts); the tables (profile-report.ts) are printed and, in full mode,
// written to bench/PROFILE.md. `--quick`: a shorter run; `--only <word>`: the rows whose name contains
// the word, with their baselines (PROFILE.md is left as it is either way).
import type { AppTiming } from './app-bench';
import { commandOf, progress, runOptions } from './command-line';
import { forkChild, stopAllProcesses, stopProcessesOnSignals } from './processes';
import { profileScenario, PROFILE_DIRECTORY, type ProfiledScenario } from './profile-bench';
import { profileSections } from './profile-report';
import { machineDescription, renderReport, writeResults } from './report';
import { APP_SCENARIOS, canRun, koaTargetScenarios, selectScenarios } from './scenarios';
import { REDIS_SERVER } from '../tests/fixtures/installed-programs';
import { startRedisServer } from './services';
import type { StoreReady } from './store-process';

const QUICK: AppTiming = { warmupRequests: 10_000, seconds: 2 };
const FULL: AppTiming = { warmupRequests: 50_000, seconds: 5 };

async function main(): Promise<void> {
  stopProcessesOnSignals();
  const { quick, only } = runOptions();
  const timing = quick ? QUICK : FULL;
  const started = new Date();
  const machine = machineDescription();

  const redis = REDIS_SERVER.installed ? await startRedisServer() : undefined;
  const store = await forkChild<StoreReady>('store-process', redis ? [redis.url] : []);
  const available = koaTargetScenarios(APP_SCENARIOS).filter((scenario) => canRun(scenario, store.ready, redis !== undefined));
  const scenarios = only === undefined ? available : selectScenarios(available, only);
  if (scenarios.length === 0) throw new Error(`--only ${only}: no profiled scenario's name contains it`);
  progress(`redis-server: ${redis ? redis.url : 'not on PATH, the peer skipped'}; profiles in ${PROFILE_DIRECTORY}`);

  const rows: ProfiledScenario[] = [];
  for (const scenario of scenarios) {
    progress(`profiling: ${scenario.name}`);
    rows.push(await profileScenario(scenario, { store, redis }, timing));
  }
  const markdown = renderReport({
    title: "Where the app's CPU goes (profile)",
    method: 'one run per scenario, its profile in .tmp/bench-profiles/ (for Chrome DevTools)',
    command: commandOf('npm run bench:profile', { quick, only }),
    machine,
    started,
    minutes: (Date.now() - started.getTime()) / 60_000,
    sections: profileSections(rows, timing),
  });
  console.log(markdown);
  if (!quick && only === undefined) progress(`wrote ${writeResults(markdown, 'PROFILE.md')}`);
}

main()
  .catch((failure: unknown) => {
    console.error(failure);
    process.exitCode = 1;
  })
  .finally(() => stopAllProcesses());
