// Total CPU per decision (issue 26): what one limiter decision costs the machine, the app's CPU per
// request over its bare row's (Koa or Strapi with no limiter, same round) plus the CPU per request of
// every process that serves the limiter's store (the key-value REST server, the redis-server). The
// plugin over redis:// and the peer share one redis-server, and a limiter can look cheap in the app
// by moving work into its store (one script per strategy against the peer's MULTI of four plain
// commands), so only the sum compares them.
import type { AppSample } from './app-bench';
import { storeLivesInApp, type AppScenario } from './scenarios';

/** Which run of a round: the closed-loop load, or the fixed moderate load (fixed-rate-load.ts). */
export type LoadKind = 'closed loop' | 'fixed rate';

const appCpuOf = (sample: AppSample, load: LoadKind) => (load === 'closed loop' ? sample.appCpuMicrosPerRequest : sample.fixedRateCpuMicrosPerRequest);

function storeCpuOf(scenario: AppScenario, sample: AppSample, load: LoadKind): number | undefined {
  if (storeLivesInApp(scenario.limiter)) return 0;
  return load === 'closed loop' ? sample.storeCpuMicrosPerRequest : sample.fixedRateStoreCpuMicrosPerRequest;
}

/**
 * Per round of `samples`, the total in µs per request; `bare` holds the bare row's samples by round.
 * Undefined for a round where a part was not measured, and for a row that decides nothing (no
 * limiter, or Koa sending a fixed 429).
 */
export function totalCpuPerDecision(scenario: AppScenario, samples: readonly AppSample[], bare: readonly AppSample[], load: LoadKind): (number | undefined)[] {
  const decides = scenario.limiter.kind === 'plugin' || scenario.limiter.kind === 'rate-limiter-flexible';
  return samples.map((sample, round) => {
    const base = bare[round];
    const [own, bareCpu, store] = [appCpuOf(sample, load), base && appCpuOf(base, load), storeCpuOf(scenario, sample, load)];
    return !decides || own === undefined || bareCpu === undefined || store === undefined ? undefined : own - bareCpu + store;
  });
}
