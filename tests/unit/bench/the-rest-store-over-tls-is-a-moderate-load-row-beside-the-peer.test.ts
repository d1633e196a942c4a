// Issue 36: an Upstash-like REST store reached over TLS (the memory engine's server behind the store
// process's TLS terminator, and the same engine's server serving TLS itself) is a row of `npm run
// bench`'s fixed moderate load, compared with the same row over plain HTTP (its baseline) and with
// the peer (a target: total CPU per decision <= 1.0x the peer's), and selected with them by
// `--only 'TLS|rate-limiter-flexible + ioredis'`.
import type { AppSample } from '../../../bench/app-bench';
import { APP_SCENARIOS, canRun, pluginConfig, selectScenarios, type AppScenario } from '../../../bench/scenarios';
import type { StoreReady } from '../../../bench/store-process';
import { targetsTable } from '../../../bench/targets';
import { fixedRateRounds as rounds } from './support';

const TLS_ROW = APP_SCENARIOS.find((scenario) => scenario.role === 'REST over TLS')!;
const OWN_TLS_ROW = APP_SCENARIOS.find((scenario) => scenario.role === 'REST with its own TLS')!;
const STORES: StoreReady = {
  memory: { url: 'http://127.0.0.1:1', token: 't' },
  memoryOverTls: { url: 'https://127.0.0.1:2?tlsCa=%2Ftmp%2Fca.crt', token: 't' },
  memoryWithOwnTls: { url: 'https://127.0.0.1:3?tlsCa=%2Ftmp%2Fca.crt', token: 't' },
};


describe('the REST store over TLS', () => {
  it('runs the plugin at the terminator\'s https url, which names its CA, with the same token', () => {
    expect(TLS_ROW.limiter.kind === 'plugin' && pluginConfig(TLS_ROW.limiter, STORES)).toEqual({ url: 'https://127.0.0.1:2?tlsCa=%2Ftmp%2Fca.crt', token: 't', strategy: (TLS_ROW.limiter as { strategy: unknown }).strategy });
    expect([canRun(TLS_ROW, STORES, false), canRun(TLS_ROW, { memory: STORES.memory }, true)]).toEqual([true, false]);
  });

  it('runs the plugin at the https url of the key-value server serving TLS itself, which names the CA, with the same token', () => {
    expect(OWN_TLS_ROW.limiter.kind === 'plugin' && pluginConfig(OWN_TLS_ROW.limiter, STORES)).toEqual({ url: 'https://127.0.0.1:3?tlsCa=%2Ftmp%2Fca.crt', token: 't', strategy: (OWN_TLS_ROW.limiter as { strategy: unknown }).strategy });
    expect([canRun(OWN_TLS_ROW, STORES, false), canRun(OWN_TLS_ROW, { memory: STORES.memory }, true)]).toEqual([true, false]);
  });

  it('is selected with the plain-HTTP row it is compared with, the peer and bare Koa', () => {
    expect(selectScenarios(APP_SCENARIOS, 'TLS|rate-limiter-flexible + ioredis').map((scenario) => scenario.name)).toEqual([
      'Koa, no limiter',
      'rate-limiter-flexible + ioredis + redis-server',
      'plugin sliding-window, memory engine, defaults: deny list on (vs the denyList: false row)',
      "plugin sliding-window, memory engine behind a TLS terminator, https:// (vs the memory engine's defaults row)",
      "plugin sliding-window, memory engine's server serving TLS itself, https:// (vs the memory engine's defaults row)",
    ]);
  });

  it('reads its total CPU per decision against the peer\'s at the fixed moderate load', () => {
    const [bare, peer, plain] = ['Koa, no limiter', 'rate-limiter-flexible + ioredis + redis-server', 'plugin sliding-window, memory engine, defaults: deny list on (vs the denyList: false row)'].map(
      (name) => APP_SCENARIOS.find((scenario) => scenario.name === name)!,
    );
    const app = new Map<AppScenario, AppSample[]>([
      [bare, rounds([50, 50, 50], [0, 0, 0])],
      [peer, rounds([80, 80, 80], [26, 26, 26])],
      [plain, rounds([100, 100, 100], [60, 60, 60])],
      [TLS_ROW, rounds([110, 120, 130], [70, 70, 70])],
      [OWN_TLS_ROW, rounds([110, 110, 110], [60, 60, 60])],
    ]);
    const table = targetsTable({ scenarios: [bare, peer, plain, TLS_ROW, OWN_TLS_ROW], app, kv: new Map() }).split('\n');
    expect(table.filter((line) => line.includes('at the fixed moderate load') && line.includes('plugin over REST') && line.includes('total CPU'))).toEqual([
      "| plugin over REST (memory engine, http://): total CPU per decision (app over bare Koa + the key-value server) <= 1.0x the peer's at the fixed moderate load | 1.96 (1.96 to 1.96)x | **missed** |",
      "| plugin over REST over TLS (memory engine behind a TLS terminator, https://): total CPU per decision (app over bare Koa + the key-value server and terminator) <= 1.0x the peer's at the fixed moderate load | 2.50 (2.32 to 2.68)x | **missed** |",
      "| plugin over REST over TLS (memory engine's server serving TLS itself, https://): total CPU per decision (app over bare Koa + the key-value server) <= 1.0x the peer's at the fixed moderate load | 2.14 (2.14 to 2.14)x | **missed** |",
    ]);
  });
});
