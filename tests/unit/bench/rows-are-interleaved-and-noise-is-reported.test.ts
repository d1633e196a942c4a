// Issue 15's bench defect: "Strapi, no limiter" measured slower than "Strapi + plugin" in every full
// run, always run first among the Strapi rows. The rounds now take the rows in a different order each
// round, and a ratio whose rounds fall on both sides of 1 (or of a target) is reported within noise.
import fc from 'fast-check';
import { APP_SCENARIOS, roundOrder, selectScenarios, type AppScenario } from '../../../bench/scenarios';
import { kvSampleKey, type KvSample } from '../../../bench/kv-bench';
import { signedCell, spreadCell, spreadOf, withinNoise } from '../../../bench/table';
import { targetsTable } from '../../../bench/targets';

const rowsOf = (count: number, app: AppScenario['app'] = 'strapi'): AppScenario[] =>
  Array.from({ length: count }, (_, index) => ({ name: `${app} row ${index}`, app, limiter: { kind: 'none' }, expect: 'allowed' }));

describe('the bench interleaves the rows and says when a ratio is within noise', () => {
  it('runs each row once in each place over as many rounds as its app has rows', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 16 }), (count) => {
        const rows = rowsOf(count);
        const places = rows.map((row) => Array.from({ length: count }, (_, round) => roundOrder(rows, round + 1).indexOf(row)).sort((a, b) => a - b));
        expect(places).toEqual(rows.map(() => Array.from({ length: count }, (_, place) => place)));
      }),
    );
  });

  it('never runs a row right after the same row in every round (three rows or more)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 16 }), (count) => {
        const rows = rowsOf(count);
        const orders = Array.from({ length: count }, (_, round) => roundOrder(rows, round + 1));
        for (const row of rows) {
          const before = new Set(orders.map((order) => order[order.indexOf(row) - 1]?.name ?? 'first'));
          expect(before.size).toBeGreaterThan(1);
        }
      }),
    );
  });

  it('keeps each app\'s rows together, Koa first, and every row in every round', () => {
    const order = roundOrder(APP_SCENARIOS, 2);
    expect(order.map((scenario) => scenario.app)).toEqual(APP_SCENARIOS.map((scenario) => scenario.app));
    expect(new Set(order)).toEqual(new Set(APP_SCENARIOS));
  });

  it('puts "Strapi, no limiter" first in only one of five rounds', () => {
    const strapi = selectScenarios(APP_SCENARIOS, 'strapi');
    const firsts = [1, 2, 3, 4, 5].map((round) => roundOrder(strapi, round)[0].name);
    expect(firsts.filter((name) => name === 'Strapi, no limiter')).toHaveLength(1);
  });

  it('selects the rows a word names with the baselines their ratios need (--only)', () => {
    expect(selectScenarios(APP_SCENARIOS, 'strapi').map((scenario) => scenario.name)).toEqual([
      'Strapi, no limiter',
      'Strapi + plugin sliding-window',
      'Strapi + plugin sliding-window over redis://',
      'Strapi + the peer (rate-limiter-flexible on ioredis, the same redis-server)',
      'Strapi + plugin, ip, API token sent',
      'Strapi + plugin, user, API token verified (vs the ip row)',
      'Strapi + plugin, user, JWT verified (vs the ip row)',
      'Strapi + plugin, user with tiers, JWT verified (vs the ip row)',
      'Strapi + GraphQL plugin, REST read, no limiter',
      'Strapi + GraphQL plugin, REST read, plugin by route',
      'Strapi + GraphQL plugin, GraphQL read, no limiter',
      'Strapi + GraphQL plugin, GraphQL read, plugin by operation (vs the GraphQL read, no limiter)',
      'Strapi + GraphQL plugin, GraphQL read, plugin by cost (vs the GraphQL read, no limiter)',
    ]);
    expect(selectScenarios(APP_SCENARIOS, 'by cost').map((scenario) => scenario.name)).toEqual([
      'Strapi + GraphQL plugin, GraphQL read, no limiter',
      'Strapi + GraphQL plugin, GraphQL read, plugin by cost (vs the GraphQL read, no limiter)',
    ]);
    expect(selectScenarios(APP_SCENARIOS, 'JWT').map((scenario) => scenario.name)).toEqual([
      'Strapi + plugin, ip, API token sent',
      'Strapi + plugin, user, JWT verified (vs the ip row)',
      'Strapi + plugin, user with tiers, JWT verified (vs the ip row)',
    ]);
    expect(selectScenarios(APP_SCENARIOS, 'redis engine').map((scenario) => scenario.name)).toEqual(['Koa, no limiter', 'plugin sliding-window, redis engine']);
  });

  it('reports a ratio with the range of its rounds, within noise when the range includes 1', () => {
    const cellOf = (values: number[]) => spreadCell(spreadOf(values, (value) => value), 2, 1);
    expect([cellOf([1.7, 1.65, 1.74, 1.62, 1.81]), cellOf([1.04, 0.97, 1.02, 0.99, 1.06]), cellOf([1.7])]).toEqual(['1.70 (1.62 to 1.81)', '1.02 (0.97 to 1.06), within noise', '1.70']);
    expect(spreadCell(spreadOf([12, -3, 4], (value) => value), 1, 0, signedCell)).toBe('+4.0 (-3.0 to +12.0), within noise');
  });

  it('says nothing about noise below three rounds', () => {
    expect([withinNoise(spreadOf([0.9, 1.1], (value) => value), 1), withinNoise(spreadOf([0.9, 1.0, 1.1], (value) => value), 1)]).toEqual([false, true]);
  });

  it('calls a target within noise when its rounds fall on both sides of the threshold, met or missed otherwise', () => {
    const kvRow = (requestsPerSecond: number[]) => requestsPerSecond.map((value): KvSample => ({ requestsPerSecond: value, p50Ms: 1, p99Ms: 2, failures: 0 }));
    const evalshaRow = (ratios: number[]) => {
      const kv = new Map([
        [kvSampleKey('memory engine', 'GET'), kvRow([1000, 1000, 1000, 1000, 1000])],
        [kvSampleKey('memory engine', 'EVALSHA sliding-window'), kvRow(ratios.map((ratio) => ratio * 1000))],
      ]);
      return targetsTable({ scenarios: [], app: new Map(), kv }).split('\n').find((line) => line.includes('EVALSHA'));
    };
    expect([evalshaRow([0.85, 0.92, 0.88, 0.95, 0.87]), evalshaRow([0.7, 0.72, 0.69, 0.71, 0.7]), evalshaRow([0.95, 0.93, 0.97, 0.91, 0.94])]).toEqual([
      '| key-value server alone: sliding-window EVALSHA on the memory engine >= 0.9x its own GET | 0.88 (0.85 to 0.95)x | within noise (missed by the median) |',
      '| key-value server alone: sliding-window EVALSHA on the memory engine >= 0.9x its own GET | 0.70 (0.69 to 0.72)x | **missed** |',
      '| key-value server alone: sliding-window EVALSHA on the memory engine >= 0.9x its own GET | 0.94 (0.91 to 0.97)x | met |',
    ]);
  });
});
