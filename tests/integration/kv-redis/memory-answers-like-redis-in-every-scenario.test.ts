// The memory engine against a real redis-server 7.0.15: every scenario of differential-cases.ts
// must get the same replies, error texts included. Runs when REDIS_URL is set (CI sets it, with
// REQUIRE_REDIS=1 so that a missing server is a failure, not a skip).
import { DIFFERENTIAL_SCENARIOS } from './differential-cases';
import { engineUnderTest } from '../../unit/kv-memory/memory-engine-harness';
import type { Plain } from '../../fixtures/plain-replies';
import { describeWithRedisOfTheRun } from '../../support/installed-program';
import { RedisClient } from '../../fixtures/redis-client';

/** A database of its own on the shared server, so other suites' keys never show up here. */
const DATABASE = '13';

function unordered(reply: Plain): Plain {
  if (!Array.isArray(reply)) return reply;
  // SCAN answers [cursor, keys]; KEYS answers keys.
  if (reply.length === 2 && typeof reply[0] === 'string' && Array.isArray(reply[1])) return [reply[0], [...reply[1]].sort()];
  return [...reply].sort();
}

describeWithRedisOfTheRun('memory engine answers like redis-server', () => {
  let redis: RedisClient;
  beforeAll(async () => {
    redis = await RedisClient.connect(process.env.REDIS_URL!);
    expect(await redis.send(['SELECT', DATABASE])).toBe('OK');
  });
  afterAll(async () => {
    await redis.send(['FLUSHDB']);
    redis.close();
  });

  it.each(DIFFERENTIAL_SCENARIOS.map((scenario, index) => [index + 1, scenario[0].args.join(' '), scenario] as const))(
    'scenario %i (%s ...) gets the replies redis-server gives',
    async (_index, _title, scenario) => {
      await redis.send(['FLUSHDB']);
      const subject = engineUnderTest();
      try {
        for (const { args, unordered: anyOrder } of scenario) {
          const expected = await redis.send(args);
          const actual = await subject.run(...args);
          const normalise = anyOrder ? unordered : (reply: Plain) => reply;
          expect({ command: args, reply: normalise(actual) }).toEqual({ command: args, reply: normalise(expected) });
        }
      } finally {
        await subject.engine.close();
      }
    },
  );
});
