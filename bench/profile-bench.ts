// Profiles one Koa app scenario: a fresh app child under `node --cpu-prof`, the same warm-up and
// closed-loop load as `npm run bench` (load.ts), and the profile cut to the measured run: where the
// app's CPU went, by layer and by function (cpu-profile.ts). The profile file stays for a closer look
// (Chrome DevTools, Performance panel: load the .cpuprofile).
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { startApp, type AppBenchContext, type AppTiming } from './app-bench';
import type { AppUsage } from './app-meter';
import { breakdownOf, type CpuProfile, type ProfileBreakdown } from './cpu-profile';
import { runLoad } from './load';
import { IDENTIFIER_HEADER, ROUTE, type AppScenario } from './scenarios';

/**
 * One sample every 250 µs (Node's default is 1,000): a few seconds of load then give some ten
 * thousand samples, enough to read a layer of 1 µs per request.
 */
export const SAMPLING_INTERVAL_MICROS = 250;

/** .tmp/bench-profiles/ in the source tree (this file runs from dist/bench/): not committed, rewritten by each run. */
export const PROFILE_DIRECTORY = path.resolve(__dirname, '../../.tmp/bench-profiles');

export interface ProfiledScenario {
  readonly scenario: AppScenario;
  /** Completed responses in the measured run. */
  readonly requests: number;
  readonly requestsPerSecond: number;
  /** The app process's CPU time (every thread, the profiler's included) over the measured run. */
  readonly processCpuMicros: number;
  readonly non2xxShare: number;
  readonly breakdown: ProfileBreakdown;
  readonly profileFile: string;
}

export async function profileScenario(scenario: AppScenario, context: Pick<AppBenchContext, 'store' | 'redis'>, timing: AppTiming): Promise<ProfiledScenario> {
  mkdirSync(PROFILE_DIRECTORY, { recursive: true });
  const name = `${fileNameOf(scenario.name)}.cpuprofile`;
  const execArgv = ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIRECTORY}`, `--cpu-prof-name=${name}`, `--cpu-prof-interval=${SAMPLING_INTERVAL_MICROS}`];
  const app = await startApp(scenario, context, execArgv);
  let measured;
  try {
    const load = { url: `${app.url}${ROUTE}`, perConnectionHeader: IDENTIFIER_HEADER, headers: app.headers };
    await runLoad({ ...load, requests: timing.warmupRequests });
    await app.calls.call('cpu-start');
    const fromMicros = monotonicMicros();
    const result = await runLoad({ ...load, seconds: timing.seconds });
    const toMicros = monotonicMicros();
    const usage = await app.calls.call<AppUsage>('cpu-stop');
    measured = { result, usage, span: { fromMicros, toMicros } };
  } finally {
    // Node writes the profile as the child exits, which stop() waits for.
    await app.stop();
  }
  const profileFile = path.join(PROFILE_DIRECTORY, name);
  const profile = JSON.parse(readFileSync(profileFile, 'utf8')) as CpuProfile;
  const { result, usage, span } = measured;
  return {
    scenario,
    requests: result.requests,
    requestsPerSecond: result.requestsPerSecond,
    processCpuMicros: usage.cpuMicros,
    non2xxShare: result.requests === 0 ? 0 : result.non2xx / result.requests,
    breakdown: breakdownOf(profile, span),
    profileFile,
  };
}

/** The system's monotonic clock, which the child's profile timestamps also read, in microseconds. */
const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

/** `plugin sliding-window, embedded store` -> `plugin-sliding-window-embedded-store`. */
function fileNameOf(scenarioName: string): string {
  return scenarioName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}
