// Live limits rely on one detail of @upstash/ratelimit 2.2.0 (server/src/limiter/live-limit-scope.ts):
// the limiter's context prefix names the dynamic-limit key its scripts read, and nothing else. Here
// the real library runs its real scripts on the embedded store through the plugin's limiter, and the
// exact keys each script receives are asserted: the counter keys byte-identical to the documented
// layout, then the strategy's own live key. An upgrade that moves either fails here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from '@upstash/redis';
import type { Algorithm } from '../../../server/src';
import { parseConfig } from '../../../server/src/config/parse-config';
import { compileConfig } from '../../../server/src/config/rules';
import { createLimiter } from '../../../server/src/limiter/create-limiter';
import { liveLimitKey } from '../../../server/src/limiter/live-limit-scope';
import { scriptCallsOfEachTest } from './script-call-recorder';

const NOW = 1_800_000_000_000;
const recorder = scriptCallsOfEachTest(NOW);

function limiterOf(algorithm: Algorithm) {
  const config = compileConfig(
    parseConfig({ url: 'http://127.0.0.1:1', token: 't', strategy: [{ methods: ['post', 'GET'], path: '/api/items/:id', identifierSource: 'ip', limiter: { algorithm, tokens: 2, window: '1m' } }] }),
  );
  const rule = config.rules[0];
  const redis = new Redis(recorder());
  return { rule, redis, limiter: createLimiter(rule, redis) };
}

it('the pinned @upstash/ratelimit is exactly 2.2.0, the version whose context prefix only names the dynamic-limit key', () => {
  const root = join(__dirname, '../../..');
  const installed = JSON.parse(readFileSync(join(root, 'node_modules/@upstash/ratelimit/package.json'), 'utf8')) as { version: string };
  const declared = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  expect([installed.version, declared.dependencies['@upstash/ratelimit']]).toEqual(['2.2.0', '2.2.0']);
});

it.each<[Algorithm, string[]]>([
  ['fixed-window', ['@cms:GET:/api/items/%3A:10.0.0.1:fixed-window.1m:30000000']],
  ['sliding-window', ['@cms:GET:/api/items/%3A:10.0.0.1:sliding-window.1m:30000000', '@cms:GET:/api/items/%3A:10.0.0.1:sliding-window.1m:29999999']],
  ['token-bucket', ['@cms:GET:/api/items/%3A:10.0.0.1:token-bucket.1m']],
])('%s: the script gets the counter keys of the documented layout, then the strategy\'s live key, and applies the live value', async (algorithm, counterKeys) => {
  const { rule, redis, limiter } = limiterOf(algorithm);
  const live = `@cms:live:GET,POST:/api/items/%3A:${algorithm}.1m:dynamic:global`;
  expect(liveLimitKey(rule.keys.liveLimitScope())).toBe(live);
  // The library's own default key must not be what is read.
  await redis.set('@cms:dynamic:global', 1);
  await redis.set(live, 7);

  const counted = await limiter.limit(rule.keys.limiterKey('GET', '10.0.0.1'));
  const refunded = await limiter.limit(rule.keys.limiterKey('GET', '10.0.0.1'), { rate: -1 });

  expect(counterKeys).toEqual(rule.keys.counterKeys('GET', '10.0.0.1', NOW));
  expect([counted.limit, refunded.limit]).toEqual([7, 7]);
  expect(recorder().calls.map(([, keys]) => keys)).toEqual([
    [...counterKeys, live],
    [...counterKeys, live],
  ]);
});

it('without a stored live value the configured tokens apply', async () => {
  const { rule, limiter } = limiterOf('fixed-window');
  const result = await limiter.limit(rule.keys.limiterKey('GET', '10.0.0.1'));
  expect([result.success, result.limit, result.remaining]).toEqual([true, 2, 1]);
});
