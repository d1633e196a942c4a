// The limiters run @upstash/ratelimit's scripts on the plugin's script client (store/script-client.ts)
// instead of an @upstash/redis client over the same requester: the library must decide exactly the
// same either way, for every algorithm, refunds (negative rates) included, and a reply no
// rate-limit script gives is refused, never passed on as a decision.
import { Ratelimit } from '@upstash/ratelimit';
import { Redis, type Requester } from '@upstash/redis';
import fc from 'fast-check';
import { createEmbeddedStore } from '../../../mock/kv-rest/embedded-store';
import { compileConfig } from '../../../server/src/config/rules';
import { parseConfig } from '../../../server/src/config/parse-config';
import { createLimiter } from '../../../server/src/limiter/create-limiter';
import { createScriptClient } from '../../../server/src/store/script-client';
import { advanceDate, fakeDateOnly } from '../../support/fake-date';

const ALGORITHMS = ['fixed-window', 'sliding-window', 'token-bucket'] as const;

/** One strategy's rule per algorithm: 3 tokens per second, so windows turn within a run. */
const ruleOf = (algorithm: (typeof ALGORITHMS)[number]) =>
  compileConfig(parseConfig({ url: 'http://127.0.0.1:1', token: 't', prefix: 'p', strategy: [{ methods: ['GET'], path: '/a', identifierSource: 'ip', limiter: { algorithm, tokens: 3, window: '1s' } }] })).rules[0];

function requesterOf(store: ReturnType<typeof createEmbeddedStore>): Requester {
  return { request: (request) => store.request(request.path?.join('/') ?? '', request.body) as never };
}

const decision = ({ success, limit, remaining, reset }: Awaited<ReturnType<Ratelimit['limit']>>) => ({ success, limit, remaining, reset });

const step = fc.record({
  algorithm: fc.constantFrom(...ALGORITHMS),
  caller: fc.constantFrom('a', 'b'),
  rate: fc.constantFrom(undefined, 1, 2, -1),
  advanceMs: fc.constantFrom(0, 0, 150, 400, 1000),
});

describe('the script client', () => {
  afterEach(() => jest.useRealTimers());

  it('gives @upstash/ratelimit the same decisions as an @upstash/redis client, for every algorithm and refunds', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 30 }), async (steps) => {
        fakeDateOnly(1_800_000_000_000);
        const viaRedis = createEmbeddedStore();
        const viaScripts = createEmbeddedStore();
        try {
          const redis = new Redis(requesterOf(viaRedis));
          const scripts = createScriptClient(requesterOf(viaScripts), new Redis(requesterOf(viaScripts)));
          const limiters = ALGORITHMS.map((algorithm) => [createLimiter(ruleOf(algorithm), redis), createLimiter(ruleOf(algorithm), scripts)]);
          for (const { algorithm, caller, rate, advanceMs } of steps) {
            advanceDate(advanceMs);
            const [reference, tested] = limiters[ALGORITHMS.indexOf(algorithm)];
            const options = rate === undefined ? undefined : { rate };
            expect(decision(await tested.limit(caller, options))).toEqual(decision(await reference.limit(caller, options)));
          }
        } finally {
          await viaRedis.close();
          await viaScripts.close();
        }
      }),
      { numRuns: 60 },
    );
  });

  it('refuses a script reply no rate-limit script gives, and passes an error reply on with its text', async () => {
    const answers: unknown[] = [{ result: ['not', 'numbers'] }, { error: 'ERR something broke' }];
    const requester: Requester = { request: async () => answers.shift() as never };
    const scripts = createScriptClient(requester, new Redis(requester));
    await expect(scripts.evalsha('0'.repeat(40), ['k'], [1])).rejects.toThrow('the key-value store answered EVALSHA with a reply no rate-limit script gives');
    await expect(scripts.evalsha('0'.repeat(40), ['k'], [1])).rejects.toThrow(expect.objectContaining({ name: 'StoreCommandError', message: 'ERR something broke' }));
  });
});
