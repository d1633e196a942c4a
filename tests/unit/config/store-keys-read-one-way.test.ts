// The key layout `<prefix>:<method>:<route>:<identifier>:<limiter>[:<window>]` splits in exactly one
// way: parsing a built key gives back its parts, and two different strategies or callers never
// build the same key, whatever the routes, identifiers and windows.
import fc from 'fast-check';
import { parseDuration } from '../../../server/src/config/duration';
import { escapeGlob, keyMethods, limiterInKey, parseKey, routeInKey, StrategyKeys, type KeyedStrategy } from '../../../server/src/config/keys';
import type { Algorithm } from '../../../server/src/config/schema';
import { normaliseIdentifier } from '../../../server/src/http/normalise-identifier';

/** A window as the config writes it, in ms (the keys take parsed windows). */
const windowMs = (text: string): number => {
  const duration = parseDuration(text);
  if (!duration) throw new Error(`not a window: ${text}`);
  return duration.milliseconds;
};

/** `route`: a route as keyed (a path's canonical form, config/canonical-path.ts, or a GraphQL route). */
const strategy = (route: string, algorithm: Algorithm, window: string, methods = ['GET']): KeyedStrategy => ({ methods: keyMethods(methods), route, algorithm, windowMs: windowMs(window) });

it.each([
  ['plain', 'plain'],
  ['a*b', 'a\\*b'],
  ['a?[b]', 'a\\?\\[b\\]'],
  ['back\\slash', 'back\\\\slash'],
])('escapes %p as %p in MATCH patterns', (value, escaped) => {
  expect(escapeGlob(value)).toBe(escaped);
});

it('keys ALL alone, other methods once each in upper case', () => {
  expect(keyMethods(['get', 'ALL', 'post'])).toEqual(['ALL']);
  expect(keyMethods(['get', 'GET', 'post'])).toEqual(['GET', 'POST']);
});

it('writes the route with % and : escaped and the window in its largest whole unit', () => {
  expect(routeInKey('/api/articles/:')).toBe('/api/articles/%3A');
  expect(routeInKey('/100%/*')).toBe('/100%25/*');
  expect(limiterInKey('fixed-window', windowMs('10000ms'))).toBe('fixed-window.10s');
  expect(limiterInKey('sliding-window', windowMs('1.5m'))).toBe('sliding-window.90s');
  expect(limiterInKey('token-bucket', windowMs('24h'))).toBe('token-bucket.1d');
  expect(limiterInKey('token-bucket', windowMs('1500ms'))).toBe('token-bucket.1500ms');
});

it('builds <prefix>:<method>:<route>:<identifier>:<limiter> and reads it back', () => {
  const keys = new StrategyKeys('@cms', strategy('/api/articles/:', 'fixed-window', '1m'));
  expect(keys.storeKey('GET', '203.0.113.9')).toBe('@cms:GET:/api/articles/%3A:203.0.113.9:fixed-window.1m');
  const parsed = parseKey('@cms', '@cms:GET:/api/articles/%3A:203.0.113.9:fixed-window.1m:29123456');
  expect(parsed).toEqual({ method: 'GET', route: '/api/articles/%3A', identifier: '203.0.113.9', limiter: 'fixed-window.1m', window: 29123456 });
  expect(keys.owns(parsed!)).toBe(true);
  // A window key without its window number, or a bucket key with one, is not this strategy's.
  expect(keys.owns(parseKey('@cms', keys.storeKey('GET', '203.0.113.9'))!)).toBe(false);
  expect(parseKey('@cms', '@cms:events:1700000000000')).toBeUndefined();
  expect(parseKey('@cms', 'other:GET:/a:b:fixed-window.1m')).toBeUndefined();
});

it('finding 6: the stem of GET /api/articles plus caller ":" is not a key of GET /api/articles/:id', () => {
  const withParam = new StrategyKeys('@cms', strategy('/api/articles/:', 'token-bucket', '1m'));
  const withSlash = new StrategyKeys('@cms', strategy('/api/articles', 'token-bucket', '1m'));
  const key = parseKey('@cms', withParam.storeKey('GET', '10.0.0.1'))!;
  expect(withParam.owns(key)).toBe(true);
  expect(withSlash.owns(key)).toBe(false);
  expect(withSlash.storeKey('GET', normaliseIdentifier('/:')).startsWith(withParam.storeKey('GET', ''))).toBe(false);
});

const algorithms = fc.constantFrom<Algorithm>('fixed-window', 'sliding-window', 'token-bucket');
const windows = fc.constantFrom('1s', '10s', '1000ms', '1m', '90s', '1.5m', '1h', '1d');
const routes = fc.oneof(fc.constant('*'), fc.string({ unit: fc.constantFrom('/', ':', 'a', 'id', '%', '*', '3A', '.', ' ') }).map((rest) => `/${rest}`));
const callers = fc.oneof(fc.string(), fc.constantFrom('id', 'a:b', 'ip=1.2.3.4', '1.2.3.4:80')).map(normaliseIdentifier);
const methods = fc.constantFrom('GET', 'POST', 'ALL');

it('two keys are equal only when strategy shape, method and caller are: parsing inverts building', () => {
  fc.assert(
    fc.property(routes, algorithms, windows, methods, callers, fc.option(fc.nat(), { nil: undefined }), (route, algorithm, window, method, caller, windowNumber) => {
      const keys = new StrategyKeys('@cms:x', strategy(route, algorithm, window, [method]));
      const key = keys.storeKey(method, caller) + (windowNumber === undefined ? '' : `:${windowNumber}`);
      expect(parseKey('@cms:x', key)).toEqual({ method, route: routeInKey(route), identifier: caller, limiter: limiterInKey(algorithm, windowMs(window)), window: windowNumber });
    }),
    { numRuns: 2000 },
  );
});

it('no two different (route, limiter, method, caller) build the same key', () => {
  const part = fc.tuple(routes, algorithms, windows, methods, callers);
  fc.assert(
    fc.property(part, part, ([routeA, algA, winA, methodA, callerA], [routeB, algB, winB, methodB, callerB]) => {
      const a = new StrategyKeys('@cms', strategy(routeA, algA, winA, [methodA])).storeKey(methodA, callerA);
      const b = new StrategyKeys('@cms', strategy(routeB, algB, winB, [methodB])).storeKey(methodB, callerB);
      const same = routeA === routeB && limiterInKey(algA, windowMs(winA)) === limiterInKey(algB, windowMs(winB)) && methodA === methodB && callerA === callerB;
      expect(a === b).toBe(same);
    }),
    { numRuns: 2000 },
  );
});
