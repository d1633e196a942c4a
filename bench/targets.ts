// The performance targets, checked against this run's medians and reported (never enforced:
// the benchmark measures, CI does not gate on it).
import type { AppSummary } from './app-bench';
import type { KvSummary } from './kv-bench';
import { cell, markdownTable, signedCell } from './table';

interface Check {
  readonly target: string;
  readonly measured: string;
  /** undefined: not measured in this run. */
  readonly met?: boolean;
}

const atLeast = (value: number | undefined, bound: number) => (value === undefined ? undefined : value >= bound);
const atMost = (value: number | undefined, bound: number) => (value === undefined ? undefined : value <= bound);
const both = (first: boolean | undefined, second: boolean | undefined) => (first === undefined || second === undefined ? undefined : first && second);

function appChecks(summary: AppSummary): Check[] {
  const name = summary.scenario.name;
  if (summary.scenario.target === 'allowed path') {
    return [
      { target: `${name}: throughput >= 0.6 of baseline`, measured: cell(summary.vsBaseline, 2), met: atLeast(summary.vsBaseline, 0.6) },
      { target: `${name}: app CPU <= +60 µs/req over baseline`, measured: signedCell(summary.cpuOverBaselineMicros, 1), met: atMost(summary.cpuOverBaselineMicros, 60) },
    ];
  }
  if (summary.scenario.target === 'flood') {
    return [
      {
        target: `${name}: throughput >= 0.9 of baseline, zero store calls`,
        measured: `${cell(summary.vsBaseline, 2)}, ${cell(summary.storeCalls)} store calls`,
        met: both(atLeast(summary.vsBaseline, 0.9), summary.storeCalls === undefined ? undefined : summary.storeCalls === 0),
      },
    ];
  }
  return [];
}

function kvChecks(kv: readonly KvSummary[]): Check[] {
  const find = (target: string, operation: string) => kv.find((summary) => summary.target === target && summary.operation === operation);
  const memoryGet = find('memory engine', 'GET');
  const checks: Check[] = [{ target: 'memory engine GET >= webdis GET', measured: `${cell(memoryGet?.vsWebdisGet ?? Number.NaN, 2)} of webdis GET`, met: atLeast(memoryGet?.vsWebdisGet, 1) }];
  for (const engine of ['memory engine', 'redis engine']) {
    const get = find(engine, 'GET')?.requestsPerSecond;
    const evalsha = find(engine, 'EVALSHA sliding-window')?.requestsPerSecond;
    if (get === undefined || evalsha === undefined) continue;
    checks.push({ target: `${engine} EVALSHA sliding-window >= 0.5 of its GET`, measured: `${cell(evalsha / get, 2)} of GET`, met: atLeast(evalsha / get, 0.5) });
  }
  return checks;
}

export function targetsTable(app: readonly AppSummary[], kv: readonly KvSummary[]): string {
  const checks = [...app.flatMap(appChecks), ...kvChecks(kv)];
  const verdict = (met: boolean | undefined) => (met === undefined ? 'not measured' : met ? 'met' : '**not met**');
  return markdownTable(['target', 'measured', ''], checks.map((check) => [check.target, check.measured, verdict(check.met)]));
}
