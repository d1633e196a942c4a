// Issue 17's bench bullet: the plugin rows say what they cost the store per request, measured where
// the store is (commands, and the calls carrying them: HTTP requests, in-process calls on the
// embedded store, the redis-server's reads for the peer), with the deny list off and on side by side.
import fc from 'fast-check';
import supertest from 'supertest';
import { createRateLimitMiddleware } from '../../../server/src';
import { countEmbeddedStoreRequests } from '../../../bench/embedded-store-meter';
import { APP_SCENARIOS, pluginConfig, selectScenarios, type LimiterSpec } from '../../../bench/scenarios';
import { commandsInRequest, countsBetween, medianStoreCost, redisCountsFromInfo, storeCostCell, storeCostPerRequest, storeTransportOf } from '../../../bench/store-cost';
import { startKoaApp } from '../../fixtures/koa-app';

const STORES = { memory: { url: 'http://127.0.0.1:1', token: 't' } };
const slidingWindow = { methods: ['GET' as const], path: '/limited' as const, identifierSource: 'ip' as const, limiter: { algorithm: 'sliding-window' as const, tokens: 1000, window: '1m' as const } };

describe('store commands per request in the bench table', () => {
  it('counts one command for a single-command request and every command of a /pipeline or /multi-exec body', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.string(), { minLength: 1 }), { maxLength: 20 }), fc.constantFrom('pipeline', 'multi-exec'), (commands, route) => {
        expect(commandsInRequest([route], commands)).toBe(commands.length);
      }),
    );
    expect(commandsInRequest(undefined, ['evalsha', 'abc', 0])).toBe(1);
    expect(commandsInRequest([], ['get', 'k'])).toBe(1);
  });

  it('reads the commands (all but INFO) and the read events from a redis-server INFO stats commandstats reply', () => {
    const info = [
      '# Stats',
      'total_connections_received:4',
      'total_commands_processed:60013',
      'total_reads_processed:21007',
      'total_writes_processed:21004',
      '',
      '# Commandstats',
      'cmdstat_evalsha:calls=30000,usec=90000,usec_per_call=3.00,rejected_calls=0,failed_calls=0',
      'cmdstat_info:calls=3,usec=300,usec_per_call=100.00,rejected_calls=0,failed_calls=0',
      'cmdstat_client|setname:calls=1,usec=1,usec_per_call=1.00,rejected_calls=0,failed_calls=0',
      'cmdstat_script|load:calls=1,usec=20,usec_per_call=20.00,rejected_calls=0,failed_calls=0',
      '',
    ].join('\r\n');
    expect(redisCountsFromInfo(info)).toEqual({ calls: 21007, commands: 30002, scripts: 30000 });
    expect(redisCountsFromInfo('# Commandstats\r\n')).toEqual({ calls: Number.NaN, commands: 0, scripts: 0 });
  });

  it('divides what reached the store between two readings, less the second reading itself, by the requests served', () => {
    const between = countsBetween({ calls: 100, commands: 300 }, { calls: 1101, commands: 2300 }, { calls: 1, commands: 0 });
    expect(between).toEqual({ calls: 1000, commands: 2000 });
    expect(storeCostPerRequest(between, 1000)).toEqual({ calls: 1000, callsPerRequest: 1, commandsPerRequest: 2 });
    expect(storeCostPerRequest(between, 0)).toBeUndefined();
    expect(storeCostPerRequest(undefined, 1000)).toBeUndefined();
    expect(countsBetween(undefined, { calls: 1, commands: 1 })).toBeUndefined();
  });

  it('takes the median of each field over the rounds that measured the store', () => {
    const rounds = [
      { calls: 900, callsPerRequest: 0.9, commandsPerRequest: 2 },
      undefined,
      { calls: 1000, callsPerRequest: 1, commandsPerRequest: 2 },
      { calls: 1100, callsPerRequest: 1.1, commandsPerRequest: 3 },
    ];
    expect(medianStoreCost(rounds)).toEqual({ calls: 1000, callsPerRequest: 1, commandsPerRequest: 2 });
    expect(medianStoreCost([undefined, undefined])).toBeUndefined();
  });

  it('says in the cell how the calls reached the store: HTTP, in-process (no round trip) or redis reads', () => {
    const cost = { calls: 5000, callsPerRequest: 0.25, commandsPerRequest: 2 };
    expect(storeCostCell(cost, 'http')).toBe('2.00 (0.25 HTTP)');
    expect(storeCostCell(cost, 'in-process')).toBe('2.00 (0.25 in-process, 0 HTTP)');
    expect(storeCostCell(cost, 'redis reads')).toBe('2.00 (0.25 redis reads)');
    expect(storeCostCell({ calls: 0, callsPerRequest: 0, commandsPerRequest: 0 }, 'http')).toBe('0');
    expect(storeCostCell(undefined, 'http')).toBe('—');
    expect(storeCostCell(cost, undefined)).toBe('—');
  });

  it('counts the plugin on a REST server over HTTP, on the embedded store in-process, the peer in redis reads, nothing else', () => {
    const specs: LimiterSpec[] = [
      { kind: 'plugin', store: 'memory', strategy: [] },
      { kind: 'plugin', store: 'redis', strategy: [] },
      { kind: 'plugin', store: 'embedded', strategy: [], denyList: false },
      { kind: 'rate-limiter-flexible', store: 'redis' },
      { kind: 'rate-limiter-flexible', store: 'memory' },
      { kind: 'none' },
      { kind: 'static-refusal' },
    ];
    expect(specs.map(storeTransportOf)).toEqual(['http', 'http', 'in-process', 'redis reads', undefined, undefined, undefined]);
  });

  it('gives the plugin denyList: false only on the rows that say so, and its defaults elsewhere', () => {
    expect(pluginConfig({ kind: 'plugin', store: 'memory', strategy: [slidingWindow], denyList: false }, STORES)).toEqual({ url: 'http://127.0.0.1:1', token: 't', strategy: [slidingWindow], denyList: false });
    expect(pluginConfig({ kind: 'plugin', store: 'embedded', strategy: [slidingWindow] }, STORES)).toEqual({ strategy: [slidingWindow] });
  });

  it('compares each default row (deny list on) with its denyList: false row, and --only deny selects both pairs with their baselines', () => {
    expect(selectScenarios(APP_SCENARIOS, 'deny').map((scenario) => [scenario.name, scenario.baseline ?? null])).toEqual([
      ['Koa, no limiter', null],
      ['plugin sliding-window, embedded store, denyList: false', null],
      ['plugin sliding-window, embedded store, defaults: deny list on (vs the denyList: false row)', 'plugin sliding-window, embedded store, denyList: false'],
      ['plugin sliding-window, memory engine, denyList: false', null],
      ['plugin sliding-window, memory engine, defaults: deny list on (vs the denyList: false row)', 'plugin sliding-window, memory engine, denyList: false'],
    ]);
  });

  it('measures on the embedded store one command per request with the deny list off and two (the deny check) with it on', async () => {
    const counts = countEmbeddedStoreRequests();
    const perRequest = async (denyList: boolean) => {
      const limiter = createRateLimitMiddleware({ strategy: [slidingWindow], denyList }, { logger: { info: () => undefined, warn: () => undefined }, environment: 'development' });
      const app = startKoaApp([limiter], (ctx) => void (ctx.body = 'ok'));
      try {
        // The first request loads the scripts (NOSCRIPT, then EVAL): not the steady state a run measures.
        await supertest(app.server).get('/limited').expect(200);
        const before = { ...counts };
        for (let i = 0; i < 10; i++) await supertest(app.server).get('/limited').expect(200);
        return storeCostPerRequest(countsBetween(before, { ...counts }), 10);
      } finally {
        app.close();
        limiter.close();
      }
    };
    expect(await perRequest(false)).toEqual({ calls: 10, callsPerRequest: 1, commandsPerRequest: 1 });
    expect(await perRequest(true)).toEqual({ calls: 20, callsPerRequest: 2, commandsPerRequest: 2 });
  });
});
