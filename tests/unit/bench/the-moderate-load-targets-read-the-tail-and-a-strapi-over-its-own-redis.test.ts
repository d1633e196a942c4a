// Issue 36 ("Targets, in `npm run bench` as rows met or missed per round"): at the fixed moderate load
// the run reads the redis engine's total CPU per decision against the peer's (<= 1.0x), the p99 of the
// plugin on every transport against the peer's (the same bare Koa under both, so "p99 added <= the
// peer's" is "p99 <= the peer's"), and a real Strapi over its own Redis against the same Strapi with no
// limiter: p99 <= 1.5x, app CPU added <= 10% of Strapi's own per request. On a machine where Strapi
// alone is busy most of a core at 1,000 requests/s (860 µs of CPU per request on this session's
// Xeon: its p99 read 120 ms, the plugin's row 9 ms), the tail ratio reads Strapi's own queue, so the
// check says it cannot be read there and which `--strapi-rate` to run.
import type { AppSample } from '../../../bench/app-bench';
import { APP_SCENARIOS, type AppScenario } from '../../../bench/scenarios';
import { targetsTable } from '../../../bench/targets';
import { fixedRateRounds as rounds } from './support';

const byRole = (role: AppScenario['role']) => APP_SCENARIOS.find((scenario) => scenario.role === role)!;
const byName = (name: string) => APP_SCENARIOS.find((scenario) => scenario.name === name)!;

describe('the moderate-load targets of issue 36', () => {
  it('measure the redis engine and a Strapi over redis:// at the fixed moderate load', () => {
    expect([byRole('redis engine').latency, byRole('Strapi on redis').latency, byRole('Strapi unlimited').latency]).toEqual([true, true, true]);
    expect(byRole('Strapi on redis').limiter).toEqual({ kind: 'plugin', store: 'redis url', strategy: [expect.objectContaining({ limiter: expect.objectContaining({ algorithm: 'sliding-window' }) })] });
  });

  it('read the redis engine\'s total, every transport\'s p99 against the peer\'s, and Strapi\'s tail and CPU against its own', () => {
    const app = new Map<AppScenario, AppSample[]>([
      [byName('Koa, no limiter'), rounds([50, 50, 50], [0, 0, 0], [300, 300, 300])],
      [byRole('peer'), rounds([80, 80, 80], [26, 26, 26], [600, 600, 600])],
      [byRole('plugin on redis'), rounds([90, 90, 90], [18, 18, 18], [500, 700, 540])],
      [byRole('one strategy'), rounds([100, 100, 100], [60, 60, 60], [900, 900, 960])],
      [byRole('redis engine'), rounds([100, 100, 100], [10, 20, 30], [450, 480, 420])],
      [byRole('Strapi unlimited'), rounds([300, 300, 300], [0, 0, 0], [2_000, 2_000, 2_000])],
      [byRole('Strapi on redis'), rounds([320, 340, 330], [20, 20, 20], [2_600, 3_400, 2_800])],
    ]);
    const lines = targetsTable({ scenarios: [...app.keys()], app, kv: new Map() })
      .split('\n')
      .filter((line) => line.includes('p99') || line.includes('Strapi + plugin') || line.includes('redis engine (the key-value server'));
    expect(lines).toEqual([
      "| plugin on the redis engine (the key-value server in front of a redis-server, http://): total CPU per decision (app over bare Koa + the key-value server + redis-server) <= 1.0x the peer's at the fixed moderate load | 1.25 (1.07 to 1.43)x | **missed** |",
      "| plugin over redis://: p99 at the fixed moderate load <= 1.0x the peer's (the latency it adds no more than the peer's) | 0.90 (0.83 to 1.17)x | within noise (met by the median) |",
      "| plugin over REST (memory engine, http://): p99 at the fixed moderate load <= 1.0x the peer's | 1.50 (1.50 to 1.60)x | **missed** |",
      "| plugin on the redis engine: p99 at the fixed moderate load <= 1.0x the peer's | 0.75 (0.70 to 0.80)x | met |",
      "| Strapi + plugin over redis://: p99 at the fixed moderate load <= 1.5x Strapi's own with no limiter | 1.40 (1.30 to 1.70)x | within noise (met by the median) |",
      "| Strapi + plugin over redis://: app CPU added at the fixed moderate load <= 0.10x Strapi's own per request | 0.10 (0.07 to 0.13)x | within noise (met by the median) |",
    ]);
  });

  it('cannot read Strapi\'s tail where Strapi alone keeps most of a core busy, and names a rate that would not', () => {
    const strapiRows = (strapiCpu: number) =>
      new Map<AppScenario, AppSample[]>([
        [byRole('Strapi unlimited'), rounds([strapiCpu, strapiCpu, strapiCpu], [0, 0, 0], [120_000, 90_000, 150_000])],
        [byRole('Strapi on redis'), rounds([strapiCpu + 100, strapiCpu + 100, strapiCpu + 100], [20, 20, 20], [9_000, 9_000, 9_000])],
      ]);
    const tailLine = (app: Map<AppScenario, AppSample[]>) => targetsTable({ scenarios: [...app.keys()], app, kv: new Map() }).split('\n').find((line) => line.includes('Strapi + plugin over redis://: p99'));
    expect([tailLine(strapiRows(860)), tailLine(strapiRows(400))]).toEqual([
      "| Strapi + plugin over redis://: p99 at the fixed moderate load <= 1.5x Strapi's own with no limiter | 0.08 (0.06 to 0.10)x | not readable here: the app alone was busy 86% of a core at 1,000 requests/s, so its own queue sets its p99: run `--strapi-rate 465` |",
      "| Strapi + plugin over redis://: p99 at the fixed moderate load <= 1.5x Strapi's own with no limiter | 0.08 (0.06 to 0.10)x | met |",
    ]);
  });
});
