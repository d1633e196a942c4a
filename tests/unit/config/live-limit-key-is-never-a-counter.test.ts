// A strategy's live-limit key (`<prefix>:live:<methods>:<route>:<limiter>:dynamic:global`) sits under
// the plugin's prefix but is never a counter: no counter key equals it, the one key layout does not
// parse it (so the usage view never lists it as a caller), and no pattern built from a caller's
// limiter key (the library's reset MATCH) reaches it, whatever the routes, windows, methods and
// callers. It names the strategy by what decides its keys, so reordering the config keeps it.
import fc from 'fast-check';
import { parseDuration } from '../../../server/src/config/duration';
import { escapeGlob, keyMethods, parseKey, StrategyKeys, type KeyedStrategy } from '../../../server/src/config/keys';
import { parseConfig } from '../../../server/src/config/parse-config';
import { compileConfig } from '../../../server/src/config/rules';
import type { Algorithm } from '../../../server/src/config/schema';
import { normaliseIdentifier } from '../../../server/src/http/normalise-identifier';
import { liveLimitKey } from '../../../server/src/limiter/live-limit-scope';
import { globMatches } from '../../../mock/kv-rest/memory/glob';

const PREFIX = '@cms';
const algorithms = fc.constantFrom<Algorithm>('fixed-window', 'sliding-window', 'token-bucket');
const windows = fc.constantFrom('1s', '10s', '1m', '90s', '1h', '1d', '1500ms');
const routes = fc.oneof(fc.constant('*'), fc.string({ unit: fc.constantFrom('/', ':', 'a', 'id', '%', '*', '3A', '.', 'live', 'dynamic', 'global') }).map((rest) => `/${rest}`));
const methodLists = fc.oneof(fc.constant(['ALL']), fc.subarray(['GET', 'POST', 'PUT', 'DELETE', 'PATCH'], { minLength: 1 }));
const callers = fc.oneof(fc.string(), fc.constantFrom('live', 'dynamic:global', 'a:b', '*', 'ip=1.2.3.4')).map(normaliseIdentifier);

const shape = (route: string, algorithm: Algorithm, window: string, methods: readonly string[]): KeyedStrategy => ({
  methods: keyMethods(methods),
  route,
  algorithm,
  windowMs: parseDuration(window)!.milliseconds,
});

it('the live key of any strategy is no counter key, does not parse as one, and no reset pattern of any caller matches it', () => {
  const strategy = fc.tuple(routes, algorithms, windows, methodLists);
  fc.assert(
    fc.property(strategy, strategy, callers, fc.nat(), ([route, algorithm, window, methods], [otherRoute, otherAlgorithm, otherWindow, otherMethods], caller, now) => {
      const live = liveLimitKey(new StrategyKeys(PREFIX, shape(route, algorithm, window, methods)).liveLimitScope());
      const other = new StrategyKeys(PREFIX, shape(otherRoute, otherAlgorithm, otherWindow, otherMethods));
      expect(live.startsWith(`${PREFIX}:live:`)).toBe(true);
      expect(parseKey(PREFIX, live)).toBeUndefined();
      for (const method of other.methods) {
        expect(other.counterKeys(method, caller, now)).not.toContain(live);
        // What @upstash/ratelimit's resetUsedTokens would SCAN for, and the usage view's stem of a caller.
        expect(globMatches(`${escapeGlob(other.storeKey(method, caller))}:*`, live)).toBe(false);
        expect(globMatches(`${escapeGlob(other.storeKey(method, caller))}*`, live)).toBe(false);
      }
    }),
    { numRuns: 2000 },
  );
});

it('two strategies share a live key only when their methods, route and limiter all agree (which the schema refuses as shared counters)', () => {
  const strategy = fc.tuple(routes, algorithms, windows, methodLists);
  fc.assert(
    fc.property(strategy, strategy, ([routeA, algA, winA, methodsA], [routeB, algB, winB, methodsB]) => {
      const a = new StrategyKeys(PREFIX, shape(routeA, algA, winA, methodsA));
      const b = new StrategyKeys(PREFIX, shape(routeB, algB, winB, methodsB));
      const sameShape = routeA === routeB && a.shape('X') === b.shape('X') && [...a.methods].sort().join() === [...b.methods].sort().join();
      expect(a.liveLimitScope() === b.liveLimitScope()).toBe(sameShape);
    }),
    { numRuns: 2000 },
  );
});

it('reordering the strategies, or the methods inside one, keeps each strategy\'s live key', () => {
  const burst = { methods: ['get', 'POST'], path: '/api/articles/:id', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 5, window: '10s' } } as const;
  const sustained = { methods: ['POST', 'GET'], path: '/api/articles/:id', identifierSource: 'ip', limiter: { algorithm: 'sliding-window', tokens: 100, window: '1h' } } as const;
  const scopes = (strategy: object[]) => compileConfig(parseConfig({ url: 'http://127.0.0.1:1', token: 't', strategy })).rules.map((rule) => liveLimitKey(rule.keys.liveLimitScope()));
  expect(scopes([burst, sustained])).toEqual([
    '@cms:live:GET,POST:/api/articles/%3A:fixed-window.10s:dynamic:global',
    '@cms:live:GET,POST:/api/articles/%3A:sliding-window.1h:dynamic:global',
  ]);
  expect(scopes([{ ...sustained, methods: ['get', 'post'] }, burst])).toEqual([
    '@cms:live:GET,POST:/api/articles/%3A:sliding-window.1h:dynamic:global',
    '@cms:live:GET,POST:/api/articles/%3A:fixed-window.10s:dynamic:global',
  ]);
});
