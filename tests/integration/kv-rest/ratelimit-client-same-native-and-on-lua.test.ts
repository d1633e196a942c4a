// The official @upstash/ratelimit client against two key-value servers, one whose memory engine runs
// the library's scripts natively and one that runs them on Lua: every limiter, with refunds, dynamic
// limits, getRemaining, resetUsedTokens and the deny list, on one fake clock, must get the same
// results from both.
import { MultiRegionRatelimit, Ratelimit } from '@upstash/ratelimit';
import { Redis } from '@upstash/redis';
import { startKvRestServer, type KvRestServer } from '../../../mock';
import { createMemoryEngine } from '../../../mock/kv-rest/memory';
import { NativeRun, RUN_ON_LUA } from '../../../mock/kv-rest/memory/scripting/native-scripts';

const START = 1_700_000_000_000;
let clock = START;

type Outcome = Record<string, unknown>;
type Scenario = (redis: Redis, advance: (ms: number) => void) => Promise<Outcome[]>;

/** What a limit call decided, without its analytics promise. */
const decision = ({ success, limit, remaining, reset, reason }: Awaited<ReturnType<Ratelimit['limit']>>): Outcome => ({ success, limit, remaining, reset, reason });

async function limitSequence(limiter: Ratelimit | MultiRegionRatelimit, advance: (ms: number) => void): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const [identifier, rate, wait] of [
    ['a', 1, 0], ['a', 2, 100], ['a', 1, 0], ['a', 1, 0], ['b', 1, 0], ['a', -2, 200], ['a', 1, 0], ['a', 3, 700], ['a', 1, 9_000], ['a', 1, 1_000], ['a', 1, 20_000],
  ] as const) {
    advance(wait);
    outcomes.push(decision(await limiter.limit(identifier, { rate })));
    outcomes.push(await limiter.getRemaining(identifier));
  }
  await limiter.resetUsedTokens('a');
  outcomes.push(decision(await limiter.limit('a')));
  return outcomes;
}

const single = (redis: Redis, limiter: ConstructorParameters<typeof Ratelimit>[0]['limiter'], prefix: string, dynamicLimits = false) =>
  new Ratelimit({ redis, limiter, prefix, ephemeralCache: false, dynamicLimits });

const SCENARIOS: [string, Scenario][] = [
  ['fixed window', (redis, advance) => limitSequence(single(redis, Ratelimit.fixedWindow(4, '10 s'), 'fw'), advance)],
  ['sliding window', (redis, advance) => limitSequence(single(redis, Ratelimit.slidingWindow(4, '10 s'), 'sw'), advance)],
  ['token bucket', (redis, advance) => limitSequence(single(redis, Ratelimit.tokenBucket(1, '1 s', 4), 'tb'), advance)],
  ['cached fixed window', (redis, advance) => limitSequence(new Ratelimit({ redis, limiter: Ratelimit.cachedFixedWindow(4, '10 s'), prefix: 'cfw', ephemeralCache: new Map() }), advance)],
  ['multi-region fixed window on one store', (redis, advance) => limitSequence(new MultiRegionRatelimit({ redis: [redis], limiter: MultiRegionRatelimit.fixedWindow(4, '10 s'), prefix: 'mfw', ephemeralCache: false }), advance)],
  ['multi-region sliding window on one store', (redis, advance) => limitSequence(new MultiRegionRatelimit({ redis: [redis], limiter: MultiRegionRatelimit.slidingWindow(4, '10 s'), prefix: 'msw', ephemeralCache: false }), advance)],
  [
    'deny list protection',
    async (redis, advance) => {
      // The library caches denied members in a module-wide map: each server gets a fresh copy of
      // the module, so the second server is asked too instead of being answered from that cache.
      let Fresh: typeof Ratelimit = Ratelimit;
      jest.isolateModules(() => {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        Fresh = (require('@upstash/ratelimit') as { Ratelimit: typeof Ratelimit }).Ratelimit;
      });
      const limiter = new Fresh({ redis, limiter: Fresh.fixedWindow(4, '10 s'), prefix: 'deny', ephemeralCache: false, enableProtection: true });
      // The IP list is switched off (no fetch from the network); one address is on a deny list.
      await redis.set('deny:ipDenyListStatus', 'disabled');
      await redis.sadd('deny:denyList:all', '198.51.100.7');
      const outcomes = [decision(await limiter.limit('a', { ip: '198.51.100.7' }))];
      return [...outcomes, ...(await limitSequence(limiter, advance))];
    },
  ],
  ...(['fixedWindow', 'slidingWindow', 'tokenBucket'] as const).map((algorithm): [string, Scenario] => [
    `${algorithm} with a dynamic limit`,
    async (redis, advance) => {
      const limiter = single(redis, algorithm === 'tokenBucket' ? Ratelimit.tokenBucket(1, '1 s', 4) : Ratelimit[algorithm](4, '10 s'), `dyn-${algorithm}`, true);
      await limiter.setDynamicLimit({ limit: 2 });
      const lowered = await limitSequence(limiter, advance);
      await limiter.setDynamicLimit({ limit: false });
      return [...lowered, decision(await limiter.limit('c'))];
    },
  ]),
];

describe('@upstash/ratelimit on the memory engine, native scripts vs Lua', () => {
  let native: KvRestServer;
  let lua: KvRestServer;
  beforeAll(async () => {
    jest.spyOn(Date, 'now').mockImplementation(() => clock);
    native = await startKvRestServer({ engine: createMemoryEngine({ runAtEndOfTurn: true }) });
    lua = await startKvRestServer({ engine: createMemoryEngine({ runAtEndOfTurn: true, nativeScripts: false }) });
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await native.close();
    await lua.close();
  });

  it.each(SCENARIOS)('%s gives the same results natively as on Lua, every script call of the library run natively', async (name, scenario) => {
    // Only the native server runs native scripts: a script handed back to Lua would make the
    // comparison pass without proving anything about the native code.
    const nativeRuns = jest.spyOn(NativeRun, 'execute');
    const outcomes: Outcome[][] = [];
    for (const server of [native, lua]) {
      clock = START;
      outcomes.push(await scenario(new Redis({ url: server.url, token: server.token, retry: false }), (ms) => (clock += ms)));
    }
    expect(outcomes[0]).toEqual(outcomes[1]);
    expect(nativeRuns).toHaveBeenCalled();
    expect(nativeRuns.mock.results.filter((result) => result.value === RUN_ON_LUA)).toEqual([]);
    nativeRuns.mockRestore();
    // The scenario did limit someone: a comparison of two servers that never refused would prove little.
    expect(outcomes[0].some((outcome) => outcome.success === false)).toBe(true);
  });
});
