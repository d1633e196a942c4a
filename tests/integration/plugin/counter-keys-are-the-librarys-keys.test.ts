// The admin counters, reset and the sliding window's reopening read @upstash/ratelimit's own keys,
// which its scripts lay out (a window number after the limiter key, a hash per token bucket). The
// rule's keys (server/src/config/keys.ts) are the one place that restates that layout; here the real
// library writes through the plugin's limiter, and the keys it leaves are exactly the ones named.
import type { Algorithm } from '../../../server/src';
import { parseConfig } from '../../../server/src/config/parse-config';
import { compileConfig } from '../../../server/src/config/rules';
import { createLimiter } from '../../../server/src/limiter/create-limiter';
import { fakeDateOnly } from '../../support/fake-date';
import { storeForSuite } from './support';

const store = storeForSuite();
afterEach(() => jest.useRealTimers());

/** One rule of `algorithm` with a one-minute window, under its own prefix, and its limiter. */
function ruleOf(algorithm: Algorithm) {
  const config = compileConfig(parseConfig({ url: store.kv.url, token: store.kv.token, prefix: `counter-keys-${algorithm}`, strategy: [{ methods: ['GET'], path: '/api/*', identifierSource: 'ip', limiter: { algorithm, tokens: 5, window: '1m' } }] }));
  const rule = config.rules[0];
  const limiter = createLimiter(rule, store.redis);
  const take = async () => (await limiter.limit(rule.keys.limiterKey('GET', '10.0.0.1'))).success;
  return { rule, take, stored: async () => (await store.redis.keys(`${config.prefix}:*`)).sort() };
}

it.each<Algorithm>(['fixed-window', 'token-bucket'])('%s: the library counts a caller in exactly the keys the rule names', async (algorithm) => {
  const { rule, take, stored } = ruleOf(algorithm);
  expect(await take()).toBe(true);
  expect(await stored()).toEqual(rule.keys.counterKeys('GET', '10.0.0.1', Date.now()).sort());
});

it('token-bucket: the hash holds the fields the usage view reads', async () => {
  const { rule, take } = ruleOf('token-bucket');
  await take();
  const [key] = rule.keys.counterKeys('GET', '10.0.0.1', Date.now());
  expect(Object.keys((await store.redis.hgetall(key)) ?? {}).sort()).toEqual(['refilledAt', 'tokens']);
});

it('sliding-window: a window later, the library holds the current and the previous window, the two keys the rule names', async () => {
  fakeDateOnly();
  const { rule, take, stored } = ruleOf('sliding-window');
  expect(await take()).toBe(true);
  jest.setSystemTime(Date.now() + rule.limit.window.milliseconds);
  expect(await take()).toBe(true);
  expect(await stored()).toEqual(rule.keys.counterKeys('GET', '10.0.0.1', Date.now()).sort());
});
