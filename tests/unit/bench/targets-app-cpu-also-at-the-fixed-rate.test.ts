// The "app CPU over bare <= 0.75x the peer's" target is read twice: under the closed-loop load, where
// a row's CPU per request also carries how the load generator's wake-ups fall (each response write
// pays for waking it), and at the fixed moderate load, where no request waits for another. Both come
// from the same rows and rounds; neither replaces the other.
import type { AppSample } from '../../../bench/app-bench';
import type { AppScenario } from '../../../bench/scenarios';
import { targetsTable } from '../../../bench/targets';

const scenario = (name: string, limiter: AppScenario['limiter'], role?: AppScenario['role']): AppScenario => ({ name, app: 'koa', limiter, expect: 'allowed', role, latency: true });
const BARE = scenario('Koa, no limiter', { kind: 'none' });
const PLUGIN = scenario('plugin', { kind: 'plugin', store: 'embedded', strategy: [] }, 'plugin');
const PEER = scenario('peer', { kind: 'rate-limiter-flexible', store: 'redis' }, 'peer');

/** Rounds of a row: its closed-loop and fixed-rate CPU per request. */
const rounds = (cpu: number[], fixedRateCpu: number[]): AppSample[] =>
  cpu.map((appCpuMicrosPerRequest, round) => ({
    requestsPerSecond: 1000,
    p50Ms: 1,
    p99Ms: 2,
    appCpuMicrosPerRequest,
    fixedRateCpuMicrosPerRequest: fixedRateCpu[round],
    storeFailures: 0,
    non2xxShare: 0,
    errors: 0,
  }));

const rowsAbout = (table: string, words: string): string[] => table.split('\n').filter((line) => line.includes("app CPU over bare Koa <= 0.75x the peer's (embedded store") && line.includes(words));

describe('the app CPU target', () => {
  const app = new Map([
    [BARE, rounds([15, 16, 15], [60, 58, 59])],
    [PLUGIN, rounds([45, 46, 47], [116, 114, 115])],
    [PEER, rounds([27, 26, 27], [140, 138, 139])],
  ]);
  const table = targetsTable({ scenarios: [BARE, PLUGIN, PEER], app, kv: new Map() });

  it('is read under the closed-loop load from each round\'s CPU over bare Koa', () => {
    expect(rowsAbout(table, "the store's work is in the app")).toEqual([
      "| plugin's app CPU over bare Koa <= 0.75x the peer's (embedded store, deny list on: the store's work is in the app) | 2.67 (2.50 to 3.00)x | **missed** |",
    ]);
  });

  it('is read again at the fixed moderate load, where no request waits for another', () => {
    expect(rowsAbout(table, 'fixed moderate load')).toEqual([
      "| plugin's app CPU over bare Koa <= 0.75x the peer's (embedded store, deny list on) at the fixed moderate load, where no request waits for another | 0.70 (0.70 to 0.70)x | met |",
    ]);
  });
});
