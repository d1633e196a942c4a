// What the bench's unit suites share: a row's samples at the fixed moderate load, built from the few
// figures a target reads, so that each suite writes only the numbers its table lines follow from.
import type { AppSample } from '../../../bench/app-bench';

/** Rounds of a row at the fixed moderate load: app CPU and store CPU per request, and the p99 when a target reads it. */
export const fixedRateRounds = (appCpu: readonly number[], storeCpu: readonly number[], p99Micros: readonly number[] = []): AppSample[] =>
  appCpu.map((fixedRateCpuMicrosPerRequest, round) => ({
    requestsPerSecond: 1000,
    p50Ms: 1,
    p99Ms: 2,
    appCpuMicrosPerRequest: fixedRateCpuMicrosPerRequest,
    fixedRatePerSecond: 1000,
    fixedRateCpuMicrosPerRequest,
    fixedRateStoreCpuMicrosPerRequest: storeCpu[round],
    fixedRateP99Micros: p99Micros[round],
    storeFailures: 0,
    non2xxShare: 0,
    errors: 0,
  }));
