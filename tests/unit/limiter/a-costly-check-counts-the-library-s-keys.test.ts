// A check charged more than 1 token runs the plugin's own script (server/src/limiter/charges.ts),
// which must count exactly where @upstash/ratelimit's script counts a request of 1: the same KEYS
// (the window's counters or the bucket, then the live-limit key of the call's context, on a Redis
// Cluster the copy in the counters' slot) and the same ARGV, so both count one window or bucket
// consistently and every key of the call sits in one slot. Here both calls of each limiter are recorded as they
// reach the store (EVALSHA first), for one node and a Cluster, with and without a live limit (a
// tier's limiter reads none).
import { Redis } from '@upstash/redis';
import type { Algorithm } from '../../../server/src';
import { slotOf } from '../../../server/src/config/cluster-slots';
import { parseConfig } from '../../../server/src/config/parse-config';
import { compileConfig } from '../../../server/src/config/rules';
import { createLimiter } from '../../../server/src/limiter/create-limiter';
import { liveLimitKeyFor } from '../../../server/src/limiter/live-limit-scope';
import { FIXED_WINDOW_CHARGE, SLIDING_WINDOW_CHARGE, TOKEN_BUCKET_CHARGE } from '../../../shared/charge-scripts';
import { scriptCallsOfEachTest } from './script-call-recorder';

const NOW = 1_800_000_000_000;
const recorder = scriptCallsOfEachTest(NOW);

const URLS = { 'one node': 'redis://127.0.0.1:1', 'a Redis Cluster': 'redis+cluster://127.0.0.1:1,127.0.0.1:2' } as const;

describe.each<[Algorithm, string]>([
  ['fixed-window', FIXED_WINDOW_CHARGE.sha],
  ['sliding-window', SLIDING_WINDOW_CHARGE.sha],
  ['token-bucket', TOKEN_BUCKET_CHARGE.sha],
])('a %s check of 3 tokens', (algorithm, chargeSha) => {
  it.each([
    ['one node', true],
    ['one node', false],
    ['a Redis Cluster', true],
    ['a Redis Cluster', false],
  ] as const)('on %s (live limit read: %s) sends the KEYS and ARGV the library sends for 1, to the plugin\'s script, all keys in one slot', async (store, live) => {
    const rule = compileConfig(parseConfig({ url: URLS[store], strategy: [{ methods: ['GET'], path: '/api/items', identifierSource: 'ip', limiter: { algorithm, tokens: 5, window: '1m' } }] })).rules[0];
    const limiter = createLimiter(rule, new Redis(recorder()), live);
    const key = rule.keys.limiterKey('GET', '10.0.0.1');
    await limiter.limit(key);
    await limiter.limit(key, { rate: 3 });

    const [[librarySha, keys, args], charged] = recorder().calls;
    const counters = rule.keys.counterKeys('GET', '10.0.0.1', NOW);
    const liveKey = liveLimitKeyFor(rule.keys.liveLimitScope(), rule.keys.placement, counters[0]);
    expect({ keys, charged, librarySha, slots: new Set(keys.map(slotOf)).size }).toEqual({
      keys: [...counters, ...(live ? [liveKey] : [])],
      charged: [chargeSha, keys, [...args.slice(0, -1), '3']],
      librarySha: expect.not.stringMatching(chargeSha),
      slots: store === 'one node' ? expect.any(Number) : 1,
    });
  });
});
