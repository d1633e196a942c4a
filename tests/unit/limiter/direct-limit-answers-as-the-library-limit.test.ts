// The plugin's limiters count through @upstash/ratelimit's algorithm directly, skipping the steps of
// the library's own `limit` that do nothing under the plugin's options (server/src/limiter/create-limiter.ts).
// Property: over random sequences of calls (callers, refunds with negative rates, time passing,
// live limits written between calls), each algorithm answers exactly what the library's own `limit`
// answers on a twin store, and leaves that store's keys and values exactly as the library's leaves its.
// A check charged more than 1 token runs the plugin's own script instead (limiter/charges.ts, proved
// in a-window-never-admits-past-its-limit-and-a-refused-charge-counts-nothing.test.ts and
// a-token-bucket-never-admits-past-its-tokens-and-a-refused-charge-changes-nothing.test.ts): here
// every algorithm takes rates up to 1.
import fc from 'fast-check';
import { Ratelimit } from '@upstash/ratelimit';
import { Redis } from '@upstash/redis';
import type { Algorithm } from '../../../server/src';
import { parseConfig } from '../../../server/src/config/parse-config';
import { compileConfig } from '../../../server/src/config/rules';
import { algorithmOf, createLimiter } from '../../../server/src/limiter/create-limiter';
import { EmbeddedRequester } from '../../../server/src/store/embedded/embedded-requester';
import { liveLimitKey, readLiveLimitAt } from '../../../server/src/limiter/live-limit-scope';
import { createScriptClient } from '../../../server/src/store/script-client';
import { advanceDate, fakeDateOnly } from '../../support/fake-date';

const START = 1_800_000_000_000;

function ruleOf(algorithm: Algorithm) {
  const strategy = { methods: ['GET'], path: '/api/items', identifierSource: 'ip', limiter: { algorithm, tokens: 3, window: '10s', ...(algorithm === 'token-bucket' ? { refillRate: 2 } : {}) } };
  return compileConfig(parseConfig({ url: 'http://127.0.0.1:1', token: 't', strategy: [strategy] })).rules[0];
}

/** A store, its clients, and over it the plugin's limiter or, built alike, the library's own. */
function twin(algorithm: Algorithm, kind: 'plugin' | 'library') {
  const requester = new EmbeddedRequester();
  const redis = new Redis(requester);
  const rule = ruleOf(algorithm);
  const scripts = createScriptClient(requester, redis);
  const limiter =
    kind === 'plugin'
      ? createLimiter(rule, scripts)
      : readLiveLimitAt(new Ratelimit({ redis: scripts, limiter: algorithmOf(rule.limit), prefix: rule.keys.prefix, analytics: false, ephemeralCache: false, timeout: 0, dynamicLimits: true }), rule.keys.liveLimitScope());
  return { requester, redis, rule, limiter };
}

type Step = { kind: 'limit'; caller: number; rate?: number } | { kind: 'wait'; ms: number } | { kind: 'live'; tokens: number | null };
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('limit' as const), caller: fc.integer({ min: 0, max: 2 }), rate: fc.option(fc.integer({ min: -3, max: 1 }), { nil: undefined }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 12_000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('live' as const), tokens: fc.option(fc.integer({ min: 1, max: 5 }), { nil: null }) }) },
);

async function keyspace(redis: Redis): Promise<Array<[string, unknown, number]>> {
  const keys = (await redis.keys('*')).sort();
  return Promise.all(keys.map(async (key): Promise<[string, unknown, number]> => [key, (await redis.type(key)) === 'hash' ? await redis.hgetall(key) : await redis.get(key), await redis.pttl(key)]));
}

describe.each<Algorithm>(['fixed-window', 'sliding-window', 'token-bucket'])('the %s limiter', (algorithm) => {
  afterEach(() => jest.useRealTimers());

  it('answers and counts exactly as the library\'s own limit', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 25 }), async (steps) => {
        fakeDateOnly(START);
        const [plugin, library] = [twin(algorithm, 'plugin'), twin(algorithm, 'library')];
        try {
          for (const next of steps) {
            if (next.kind === 'wait') advanceDate(next.ms);
            else if (next.kind === 'live') {
              for (const side of [plugin, library]) await (next.tokens === null ? side.redis.del(liveLimitKey(side.rule.keys.liveLimitScope())) : side.redis.set(liveLimitKey(side.rule.keys.liveLimitScope()), next.tokens));
            } else {
              const options = next.rate === undefined ? undefined : { rate: next.rate };
              const [mine, theirs] = [await plugin.limiter.limit(`caller${next.caller}`, options), await library.limiter.limit(`caller${next.caller}`, options)];
              expect({ ...mine, pending: undefined }).toEqual({ ...theirs, pending: undefined });
            }
          }
          expect(await keyspace(plugin.redis)).toEqual(await keyspace(library.redis));
        } finally {
          plugin.requester.close();
          library.requester.close();
        }
      }),
      { numRuns: 40 },
    );
  });
});

it('never calls the steps of the library\'s own limit that do nothing under the plugin\'s options', async () => {
  const { limiter, requester } = twin('sliding-window', 'plugin');
  try {
    const wrapper = jest.spyOn(limiter as unknown as { getRatelimitResponse: () => unknown }, 'getRatelimitResponse');
    await limiter.limit('caller');
    expect(wrapper).not.toHaveBeenCalled();
  } finally {
    requester.close();
  }
});
