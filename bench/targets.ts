// The performance targets, each a ratio between two rows of the same run (the plugin against the
// peer a Strapi user would pick today, rate-limiter-flexible on ioredis and redis-server; a blocked
// caller against Koa sending the same 429 itself), so they read the same on any machine. Each ratio
// is taken per round and the median reported. Reported, never enforced: the benchmark measures, CI
// does not gate on it.
import type { AppSample } from './app-bench';
import { kvSampleKey, type KvSamples } from './kv-bench';
import type { AppScenario, ScenarioRole } from './scenarios';
import { cell, markdownTable, medianOf, pairedByRound } from './table';

interface Check {
  readonly target: string;
  readonly measured: string;
  /** undefined: not measured in this run. */
  readonly met?: boolean;
}

export interface TargetInputs {
  readonly scenarios: readonly AppScenario[];
  readonly app: ReadonlyMap<AppScenario, readonly AppSample[]>;
  readonly kv: KvSamples;
}

/** Per round, `value(sample) / value(reference)`; the median over the rounds. */
function pairedRatio<T>(samples: readonly (T | undefined)[], references: readonly (T | undefined)[], value: (sample: T) => number): number | undefined {
  return medianOf(pairedByRound(samples, references), ({ sample, base }) => value(sample) / value(base));
}

const verdict = (ratio: number | undefined, met: (ratio: number) => boolean) => (ratio === undefined || Number.isNaN(ratio) ? undefined : met(ratio));

function appChecks({ scenarios, app }: TargetInputs): Check[] {
  const samplesOf = (find: (scenario: AppScenario) => boolean) => {
    const scenario = scenarios.find(find);
    return scenario ? (app.get(scenario) ?? []) : [];
  };
  const role = (wanted: ScenarioRole) => samplesOf((scenario) => scenario.role === wanted);
  const bare = samplesOf((scenario) => scenario.app === 'koa' && scenario.limiter.kind === 'none');
  /** A row's app CPU per request over bare Koa's in the same round. */
  const cpuOverBare = (samples: readonly AppSample[]) =>
    pairedByRound(samples, bare).map(({ sample, base }) => ({ ...sample, appCpuMicrosPerRequest: sample.appCpuMicrosPerRequest - base.appCpuMicrosPerRequest }));
  const throughput = (sample: AppSample) => sample.requestsPerSecond;
  const cpu = (sample: AppSample) => sample.appCpuMicrosPerRequest;

  const [plugin, peer, oneStrategy] = [role('plugin'), role('peer'), role('one strategy')];
  const allowed = pairedRatio(plugin, peer, throughput);
  const cpuEmbedded = pairedRatio(cpuOverBare(plugin), cpuOverBare(peer), cpu);
  const cpuRemote = pairedRatio(cpuOverBare(oneStrategy), cpuOverBare(peer), cpu);
  const blocked = role('blocked');
  const blockedRatio = pairedRatio(blocked, role('bare refusal'), throughput);
  const storeCalls = blocked.length === 0 ? undefined : Math.max(...blocked.map((sample) => sample.storeCalls ?? Number.NaN));
  const three = pairedRatio(cpuOverBare(role('three strategies')), cpuOverBare(oneStrategy), cpu);
  return [
    { target: 'allowed path: plugin (sliding window, embedded store) throughput >= 1.0x the peer', measured: `${cell(allowed, 2)}x`, met: verdict(allowed, (ratio) => ratio >= 1) },
    {
      target: "plugin's app CPU over bare Koa <= 0.75x the peer's (embedded store: the store's work is in the app)",
      measured: `${cell(cpuEmbedded, 2)}x`,
      met: verdict(cpuEmbedded, (ratio) => ratio <= 0.75),
    },
    {
      target: "plugin's app CPU over bare Koa <= 0.75x the peer's (memory engine in its own process, like the peer's redis-server)",
      measured: `${cell(cpuRemote, 2)}x`,
      met: verdict(cpuRemote, (ratio) => ratio <= 0.75),
    },
    {
      target: 'blocked caller: throughput >= 0.95x Koa answering the same 429 itself, zero store calls',
      measured: `${cell(blockedRatio, 2)}x, ${cell(storeCalls)} store calls`,
      met: verdict(blockedRatio, (ratio) => ratio >= 0.95 && storeCalls === 0),
    },
    { target: "three strategies on one route: app CPU over bare Koa <= 1.5x one strategy's (memory engine)", measured: `${cell(three, 2)}x`, met: verdict(three, (ratio) => ratio <= 1.5) },
  ];
}

function kvChecks({ kv }: TargetInputs): Check[] {
  const get = kv.get(kvSampleKey('memory engine', 'GET')) ?? [];
  const evalsha = kv.get(kvSampleKey('memory engine', 'EVALSHA sliding-window')) ?? [];
  const ratio = pairedRatio(evalsha, get, (sample) => sample.requestsPerSecond);
  return [{ target: 'key-value server alone: sliding-window EVALSHA on the memory engine >= 0.9x its own GET', measured: `${cell(ratio, 2)}x`, met: verdict(ratio, (value) => value >= 0.9) }];
}

export function targetsTable(inputs: TargetInputs): string {
  const checks = [...appChecks(inputs), ...kvChecks(inputs)];
  const label = (met: boolean | undefined) => (met === undefined ? 'not measured' : met ? 'met' : '**missed**');
  return markdownTable(['target', 'measured', ''], checks.map((check) => [check.target, check.measured, label(check.met)]));
}
