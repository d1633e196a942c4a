// Issue 26 point 6: the bench runs the plugin over redis:// beside the peer, on the same redis-server
// in the same run (its defaults: sliding window, deny list on), counts its commands per request from
// the redis-server's INFO as the peer's are counted, and reads the targets from the total CPU
// per decision (the app's CPU over bare Koa plus the redis-server's), at both loads.
import type { AppSample } from '../../../bench/app-bench';
import { totalCpuPerDecision } from '../../../bench/decision-cpu';
import { APP_SCENARIOS, pluginConfig, selectScenarios, type AppScenario } from '../../../bench/scenarios';
import { countsBetween, medianStoreCost, redisCountsFromInfo, redisCpuMicrosFromInfo, storeCostCell, storeCostPerRequest, storeTransportOf } from '../../../bench/store-cost';
import { targetsTable } from '../../../bench/targets';

const ON_REDIS = APP_SCENARIOS.find((scenario) => scenario.role === 'plugin on redis');

/** Rounds of a row: throughput, and app and store CPU per request under the closed-loop load and at the fixed rate. */
const rounds = (requestsPerSecond: number[], cpu: { app: number[]; store?: number[]; fixedApp: number[]; fixedStore?: number[] }): AppSample[] =>
  requestsPerSecond.map((value, round) => ({
    requestsPerSecond: value,
    p50Ms: 1,
    p99Ms: 2,
    appCpuMicrosPerRequest: cpu.app[round],
    storeCpuMicrosPerRequest: cpu.store?.[round],
    fixedRateCpuMicrosPerRequest: cpu.fixedApp[round],
    fixedRateStoreCpuMicrosPerRequest: cpu.fixedStore?.[round],
    storeFailures: 0,
    non2xxShare: 0,
    errors: 0,
  }));

const koaRow = (name: string, limiter: AppScenario['limiter'], role?: AppScenario['role']): AppScenario => ({ name, app: 'koa', limiter, expect: 'allowed', role, latency: true });

describe('the plugin over redis:// beside the peer, on its redis-server', () => {
  it('is a row of the run with the plugin\'s defaults, its url the redis-server\'s and no token', () => {
    expect(ON_REDIS?.limiter).toEqual({ kind: 'plugin', store: 'redis url', strategy: [expect.objectContaining({ limiter: expect.objectContaining({ algorithm: 'sliding-window' }) })] });
    if (ON_REDIS?.limiter.kind !== 'plugin') throw new Error('no plugin row over redis://');
    const config = pluginConfig(ON_REDIS.limiter, { memory: { url: 'http://127.0.0.1:1', token: 't' } }, 'redis://127.0.0.1:6390/0');
    expect([config.url, config.token, config.denyList]).toEqual(['redis://127.0.0.1:6390/0', undefined, undefined]);
    expect(() => pluginConfig(ON_REDIS.limiter as Extract<AppScenario['limiter'], { kind: 'plugin' }>, { memory: { url: 'http://127.0.0.1:1', token: 't' } })).toThrow('no redis-server in this run');
  });

  it('counts its store commands in the redis-server\'s reads, as the peer\'s', () => {
    expect([storeTransportOf(ON_REDIS!.limiter), storeTransportOf({ kind: 'rate-limiter-flexible', store: 'redis' })]).toEqual(['redis reads', 'redis reads']);
  });

  it('says how many of the commands Redis counts were scripts the client sent (commandstats counts a script and then every command it runs)', () => {
    const info = (evalsha: number, inner: number, reads: number) =>
      [`total_reads_processed:${reads}`, `cmdstat_evalsha:calls=${evalsha},usec=1,usec_per_call=1.00,rejected_calls=0,failed_calls=0`, `cmdstat_get:calls=${inner},usec=1,usec_per_call=1.00,rejected_calls=0,failed_calls=0`, ''].join('\r\n');
    const between = countsBetween(redisCountsFromInfo(info(100, 300, 50)), redisCountsFromInfo(info(2100, 6300, 101)), { calls: 1, commands: 0 });
    expect(between).toEqual({ calls: 50, commands: 8000, scripts: 2000 });
    const cost = storeCostPerRequest(between, 1000);
    expect(cost).toEqual({ calls: 50, callsPerRequest: 0.05, commandsPerRequest: 8, scriptsPerRequest: 2 });
    expect(medianStoreCost([cost, { ...cost!, scriptsPerRequest: 1 }, cost])?.scriptsPerRequest).toBe(2);
    expect(storeCostCell(cost, 'redis reads')).toBe('8.00, 2.00 of them scripts (0.05 redis reads)');
    expect(storeCostCell({ calls: 50, callsPerRequest: 0.05, commandsPerRequest: 2 }, 'http')).toBe('2.00 (0.05 HTTP)');
  });

  it('runs with --only redis beside the peer, the redis engine row, bare Koa, and Strapi over redis:// and with the peer beside Strapi alone, and nothing else', () => {
    expect(selectScenarios(APP_SCENARIOS, 'redis').map((scenario) => scenario.name)).toEqual([
      'Koa, no limiter',
      'rate-limiter-flexible + ioredis + redis-server',
      'plugin sliding-window over redis:// (ioredis, the same redis-server as the peer)',
      'plugin sliding-window, redis engine',
      'Strapi, no limiter',
      'Strapi + plugin sliding-window over redis://',
      'Strapi + the peer (rate-limiter-flexible on ioredis, the same redis-server)',
    ]);
  });

  it('reads the redis-server\'s CPU to the microsecond from INFO cpu (user + system, not its children)', () => {
    const info = ['# CPU', 'used_cpu_sys:1.250001', 'used_cpu_user:2.500002', 'used_cpu_sys_children:9.000000', 'used_cpu_user_children:9.000000', 'used_cpu_sys_main_thread:1.200000', ''].join('\r\n');
    expect(redisCpuMicrosFromInfo(info)).toBe(3_750_003);
    expect(redisCpuMicrosFromInfo('# Stats\r\n')).toBeNaN();
  });

  it('takes the total CPU per decision as the app\'s CPU over bare Koa\'s of the same round plus the store\'s, none for a row that decides nothing', () => {
    const bare = rounds([50_000, 50_000], { app: [20, 22], fixedApp: [60, 61] });
    const peer = rounds([30_000, 30_000], { app: [35, 36], store: [13, 14], fixedApp: [80, 82], fixedStore: [15, 16] });
    const embedded = rounds([25_000, 25_000], { app: [45, 47], fixedApp: [75, 76] });
    const peerRow = koaRow('peer', { kind: 'rate-limiter-flexible', store: 'redis' });
    expect(totalCpuPerDecision(peerRow, peer, bare, 'closed loop')).toEqual([28, 28]);
    expect(totalCpuPerDecision(peerRow, peer, bare, 'fixed rate')).toEqual([35, 37]);
    expect(totalCpuPerDecision(koaRow('embedded', { kind: 'plugin', store: 'embedded', strategy: [] }), embedded, bare, 'closed loop')).toEqual([25, 25]);
    expect(totalCpuPerDecision(koaRow('bare', { kind: 'none' }), bare, bare, 'closed loop')).toEqual([undefined, undefined]);
    expect(totalCpuPerDecision(peerRow, rounds([1], { app: [35], fixedApp: [80] }), bare, 'closed loop')).toEqual([undefined]);
  });

  it('reports its two targets, throughput >= 1.2x the peer and total CPU per decision <= 0.75x at both loads, with the median and range of the rounds', () => {
    const bare = koaRow('Koa, no limiter', { kind: 'none' });
    const peer = koaRow('peer', { kind: 'rate-limiter-flexible', store: 'redis' }, 'peer');
    const onRedis = koaRow('plugin over redis://', { kind: 'plugin', store: 'redis url', strategy: [] }, 'plugin on redis');
    const app = new Map([
      [bare, rounds([50_000, 51_000, 49_000], { app: [20, 20, 20], fixedApp: [60, 60, 60] })],
      [peer, rounds([30_000, 30_000, 30_000], { app: [35, 36, 34], store: [13, 12, 14], fixedApp: [80, 80, 80], fixedStore: [20, 20, 20] })],
      [onRedis, rounds([39_000, 33_000, 37_500], { app: [30, 31, 29], store: [8, 9, 7], fixedApp: [75, 76, 74], fixedStore: [11, 10, 10] })],
    ]);
    const lines = targetsTable({ scenarios: [bare, peer, onRedis], app, kv: new Map() })
      .split('\n')
      .filter((line) => line.includes('redis://') && (line.includes('throughput') || line.includes('total CPU')));
    expect(lines).toEqual([
      "| plugin over redis:// (sliding window, defaults: deny list on) on the peer's redis-server: throughput >= 1.2x the peer | 1.25 (1.10 to 1.30)x | within noise (met by the median) |",
      "| plugin over redis://: total CPU per decision (app over bare Koa + redis-server) <= 0.75x the peer's | 0.64 (0.57 to 0.71)x | met |",
      "| plugin over redis://: total CPU per decision (app over bare Koa + redis-server) <= 0.75x the peer's at the fixed moderate load | 0.65 (0.60 to 0.65)x | met |",
    ]);
  });
});
