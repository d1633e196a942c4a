// The admin page splits the limiter key analytics records (`<METHOD>:<route>:<identifier>:<limiter>`)
// into method, route and caller columns; it re-reads a layout the server builds, so a property test
// drives the server's own key builder against the page's reader (issue 16: "most limited callers"
// showed raw key strings).
import fc from 'fast-check';
import { parseLimiterKey } from '../../../admin/src/utils/limiterKey';
import { parseDuration } from '../../../server/src/config/duration';
import { limiterInKey, StrategyKeys } from '../../../server/src/config/keys';
import type { Algorithm } from '../../../server/src/config/schema';
import { ipIdentifier, normaliseIdentifier } from '../../../server/src/http/normalise-identifier';

/** A window as the config writes it, in ms (the keys take parsed windows). */
const windowMs = (text: string): number => {
  const duration = parseDuration(text);
  if (!duration) throw new Error(`not a window: ${text}`);
  return duration.milliseconds;
};

it('issue 16: a limiter key reads back as method, route as keyed, caller and limiter', () => {
  const keys = new StrategyKeys('@cms', { methods: ['GET'], route: '/api/articles/:', algorithm: 'fixed-window', windowMs: windowMs('1d') });
  expect(parseLimiterKey(keys.limiterKey('GET', 'flooder'))).toEqual({ method: 'GET', route: '/api/articles/:', identifier: 'flooder', limiter: 'fixed-window.1d' });
});

it('a value of another shape is not split (the page then shows it whole)', () => {
  expect(['', 'flooder', 'GET:/a:b', 'GET:/a:b:c:d', 'get:/a:b:c', 'GET::b:c', 'GET:/a::c'].map(parseLimiterKey)).toEqual(Array(7).fill(undefined));
});

const algorithms = fc.constantFrom<Algorithm>('fixed-window', 'sliding-window', 'token-bucket');
const windows = fc.constantFrom('1s', '10s', '1000ms', '1m', '90s', '1h', '1d');
const routes = fc.oneof(fc.constant('*'), fc.string({ unit: fc.constantFrom('/', ':', 'a', 'id', '%', '%3A', '%25', '*', '.', ' ') }).map((rest) => `/${rest}`));
const callers = fc.oneof(fc.string({ minLength: 1 }).map(normaliseIdentifier), fc.constantFrom('2001:db8::1', '::ffff:10.0.0.1', '203.0.113.9').map((ip) => ipIdentifier(ip, 64)));
const methods = fc.constantFrom('GET', 'POST', 'DELETE', 'ALL');

it('for any route, caller, method and limiter, the page reads back what the server built', () => {
  fc.assert(
    fc.property(routes, callers, methods, algorithms, windows, (route, caller, method, algorithm, window) => {
      const key = new StrategyKeys('@cms', { methods: [method], route, algorithm, windowMs: windowMs(window) }).limiterKey(method, caller);
      expect(parseLimiterKey(key)).toEqual({ method, route, identifier: caller, limiter: limiterInKey(algorithm, windowMs(window)) });
    }),
    { numRuns: 500 },
  );
});
