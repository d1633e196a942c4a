// Issue 15's "done means": a missed target comes with the profile that shows where the time goes.
// `npm run bench:profile` splits a `node --cpu-prof` profile of each target's Koa app into layers;
// these tests hold the layer rules and the splitting to a tiny hand-made profile (tiny.cpuprofile).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { breakdownOf, type CpuProfile } from '../../../bench/cpu-profile';
import type { ProfiledScenario } from '../../../bench/profile-bench';
import { layerOfFrame, type CallFrame, type Layer } from '../../../bench/profile-layers';
import { kernelWritesNote, overBareTable } from '../../../bench/profile-report';
import { APP_SCENARIOS, koaTargetScenarios } from '../../../bench/scenarios';

const TINY = JSON.parse(readFileSync(path.join(__dirname, 'tiny.cpuprofile'), 'utf8')) as CpuProfile;

const script = (url: string, functionName = 'f'): CallFrame => ({ functionName, url, lineNumber: 0 });
const native = (functionName: string): CallFrame => ({ functionName, url: '', lineNumber: -1 });

describe('the app profile split by layer', () => {
  it('puts each frame in its layer by native, Node module, npm package (the innermost one) or project folder', () => {
    const frames: [string, CallFrame][] = [
      ['writev', native('writev')],
      ['writeUtf8String', native('writeUtf8String')],
      ['node:_http_outgoing', script('node:_http_outgoing')],
      ['node:internal/streams/writable', script('node:internal/streams/writable')],
      ['node:net', script('node:net')],
      ['node:internal/process/task_queues', script('node:internal/process/task_queues')],
      ['runMicrotasks', native('runMicrotasks')],
      ['node:events', script('node:events')],
      ['koa', script('file:///app/node_modules/koa/lib/application.js')],
      ['http-errors under koa', script('file:///app/node_modules/koa/node_modules/http-errors/index.js')],
      ['delegates', script('file:///app/node_modules/delegates/index.js')],
      ['the plugin', script('file:///app/dist/server/src/http/middleware.js')],
      ['@upstash/ratelimit', script('file:///app/node_modules/@upstash/ratelimit/dist/index.js')],
      ['@upstash/redis', script('file:///app/node_modules/@upstash/redis/nodejs.js')],
      ['the memory engine', script('file:///app/dist/mock/kv-rest/memory/keyspace.js')],
      ['the embedded store', script('file:///app/dist/mock/kv-rest/embedded-store.js')],
      ['its HTTP side', script('file:///app/dist/mock/kv-rest/http/command-runner.js')],
      ['fengari', script('file:///app/node_modules/fengari/src/lvm.js')],
      ['ioredis', script('file:///app/node_modules/ioredis/built/Redis.js')],
      ['rate-limiter-flexible', script('file:///app/node_modules/rate-limiter-flexible/lib/RateLimiterRedis.js')],
      ['the app child', script('file:///app/dist/bench/koa-app-process.js')],
      ['a package with a dist/server/ of its own', script('file:///app/node_modules/@strapi/core/dist/server/index.js')],
      ['a script from elsewhere', script('file:///elsewhere/tool.js')],
      ['GC', native('(garbage collector)')],
      ['(program)', native('(program)')],
      ['an unnamed native', native('RegExp: ^[a-z]+$')],
    ];
    expect(frames.map(([what, frame]) => [what, layerOfFrame(frame)])).toEqual([
      ['writev', 'kernel writes: responses'],
      ['writeUtf8String', 'kernel writes: responses'],
      ['node:_http_outgoing', "Node's HTTP"],
      ['node:internal/streams/writable', "Node's HTTP"],
      ['node:net', "Node's HTTP"],
      ['node:internal/process/task_queues', 'promise jobs'],
      ['runMicrotasks', 'promise jobs'],
      ['node:events', 'Node, other'],
      ['koa', 'Koa'],
      ['http-errors under koa', 'Koa'],
      ['delegates', 'Koa'],
      ['the plugin', 'plugin'],
      ['@upstash/ratelimit', '@upstash/ratelimit'],
      ['@upstash/redis', '@upstash/redis'],
      ['the memory engine', 'memory engine'],
      ['the embedded store', 'embedded store'],
      ['its HTTP side', 'embedded store'],
      ['fengari', 'Lua (fengari)'],
      ['ioredis', 'ioredis'],
      ['rate-limiter-flexible', 'rate-limiter-flexible'],
      ['the app child', 'bench app'],
      ['a package with a dist/server/ of its own', 'other'],
      ['a script from elsewhere', 'other'],
      ['GC', 'GC'],
      ['(program)', 'other'],
      ['an unnamed native', undefined],
    ]);
  });

  it('tells a socket write a limiter makes to its store from the responses by what is lower on the stack', () => {
    const callers: Layer[][] = [['Koa'], ['Koa', 'plugin'], ['@upstash/redis'], ['Koa', 'bench app', 'rate-limiter-flexible'], ['embedded store'], []];
    expect(callers.map((below) => layerOfFrame(native('writev'), new Set(below)))).toEqual([
      'kernel writes: responses',
      'kernel writes: to the store',
      'kernel writes: to the store',
      'kernel writes: to the store',
      'kernel writes: responses',
      'kernel writes: responses',
    ]);
  });

  it('charges each sample of the span its time since the sample before, idle excluded, and an unnamed native to its caller', () => {
    const breakdown = breakdownOf(TINY, { fromMicros: 1100, toMicros: 1400 });
    expect(breakdown.busyMicros).toBe(212);
    expect(Object.fromEntries(breakdown.byLayer)).toEqual({
      Koa: 10,
      plugin: 50,
      '@upstash/ratelimit': 40,
      'kernel writes: to the store': 7,
      'kernel writes: responses': 60,
      "Node's HTTP": 5,
      GC: 15,
      other: 25,
    });
    expect(breakdown.functions).toEqual([
      { layer: 'kernel writes: responses', functionName: 'writev', location: '(native)', micros: 60 },
      { layer: 'plugin', functionName: 'decide', location: 'dist/server/src/http/middleware.js:100', micros: 50 },
      { layer: '@upstash/ratelimit', functionName: 'limit', location: '@upstash/ratelimit/dist/index.js:1600', micros: 40 },
      { layer: 'other', functionName: '(program)', location: '(native)', micros: 25 },
      { layer: 'GC', functionName: '(garbage collector)', location: '(native)', micros: 15 },
      { layer: 'Koa', functionName: 'handleRequest', location: 'koa/lib/application.js:11', micros: 10 },
      { layer: 'kernel writes: to the store', functionName: 'writev', location: '(native)', micros: 7 },
      { layer: "Node's HTTP", functionName: 'writeGeneric', location: 'node:internal/stream_base_commons:122', micros: 5 },
    ]);
  });

  it('reads the whole profile without a span, and refuses a span outside it (another clock)', () => {
    const whole = breakdownOf(TINY);
    expect([whole.busyMicros, whole.byLayer.get('other'), whole.byLayer.get('plugin')]).toEqual([1312, 125, 1050]);
    expect(() => breakdownOf(TINY, { fromMicros: 500, toMicros: 1400 })).toThrow('the span 500..1400 µs lies outside the profile (1000..2400 µs)');
  });

  it('shows the kernel writes beside the limiter\'s own layers over bare Koa, and says which share of the difference they are', () => {
    const [bareScenario, pluginScenario] = [APP_SCENARIOS[0], APP_SCENARIOS.find((scenario) => scenario.role === 'plugin')!];
    const row = (scenario: ProfiledScenario['scenario'], layers: Partial<Record<Layer, number>>, requests: number): ProfiledScenario => ({
      scenario,
      requests,
      requestsPerSecond: requests,
      processCpuMicros: 0,
      non2xxShare: 0,
      breakdown: { busyMicros: Object.values(layers).reduce((sum, micros) => sum + micros, 0), byLayer: new Map(Object.entries(layers) as [Layer, number][]), functions: [] },
      profileFile: '',
    });
    const bare = row(bareScenario, { 'kernel writes: responses': 1100, "Node's HTTP": 900 }, 100);
    const plugin = row(pluginScenario, { 'kernel writes: responses': 2500, "Node's HTTP": 1000, plugin: 700, 'embedded store': 300 }, 100);
    expect(overBareTable([bare, plugin], bare).split('\n')[2]).toBe(
      `| ${pluginScenario.name} | +25.0 | 10.0 | +0.0 | +14.0 | +1.0 | +0.0 | +0.0 | +0.0 | +7.0 | +0.0 | +0.0 | +0.0 | +3.0 | +0.0 | +0.0 | +0.0 | +0.0 | +0.0 | +0.0 |`,
    );
    expect(kernelWritesNote([bare, plugin], bare)).toContain('So +14.0 µs of that row\'s +25.0 µs over bare Koa is this effect,\n  not the limiter\'s own work (its own layers: 10.0 µs)');
  });

  it('profiles the Koa rows of the targets and the rows they are compared with', () => {
    expect(koaTargetScenarios(APP_SCENARIOS).map((scenario) => scenario.name)).toEqual([
      'Koa, no limiter',
      'plugin sliding-window, embedded store, denyList: false',
      'plugin sliding-window, embedded store, defaults: deny list on (vs the denyList: false row)',
      'rate-limiter-flexible + ioredis + redis-server',
      'plugin sliding-window over redis:// (ioredis, the same redis-server as the peer)',
      'plugin sliding-window, memory engine, denyList: false',
      'plugin sliding-window, memory engine, defaults: deny list on (vs the denyList: false row)',
      "plugin sliding-window, memory engine behind a TLS terminator, https:// (vs the memory engine's defaults row)",
      "plugin sliding-window, memory engine's server serving TLS itself, https:// (vs the memory engine's defaults row)",
      'plugin, three strategies on one route, memory engine',
      'plugin sliding-window, redis engine',
      'plugin, every caller blocked (answered from memory)',
      'Koa answering the same 429 itself',
    ]);
  });
});
