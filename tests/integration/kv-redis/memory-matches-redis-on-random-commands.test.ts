// Property-based differential test: random command sequences over a small key space get the same
// typed replies (simple vs bulk, error texts included) from the memory engine and from a real
// redis-server behind the redis engine. Runs when REDIS_URL is set (mandatory under REQUIRE_REDIS=1).
import fc from 'fast-check';
import type { Engine } from '../../../mock';
import { createMemoryEngine } from '../../../mock/kv-rest/memory';
import { createRedisEngine } from '../../../mock/kv-rest/redis';
import type { Reply } from '../../../mock/kv-rest/reply';
import { ENGINES } from '../../support/kv-servers';

const key = fc.constantFrom('a', 'b', 'c');
const field = fc.constantFrom('f', 'g');
const value = fc.constantFrom('1', 'x', '2.5', '', '-3', '10');
const number = fc.constantFrom('1', '-2', '0', '7', 'x');
const index = fc.constantFrom('0', '1', '-1', '5');

/** Commands whose replies have a defined order in both engines (sets are compared sorted). */
const command: fc.Arbitrary<string[]> = fc.oneof(
  fc.tuple(fc.constant('SET'), key, value),
  fc.tuple(fc.constant('GET'), key),
  fc.tuple(fc.constant('APPEND'), key, value),
  fc.tuple(fc.constant('INCRBY'), key, number),
  fc.tuple(fc.constant('STRLEN'), key),
  fc.tuple(fc.constant('GETRANGE'), key, index, index),
  fc.tuple(fc.constant('DEL'), key),
  fc.tuple(fc.constant('EXISTS'), key, key),
  fc.tuple(fc.constant('TYPE'), key),
  fc.tuple(fc.constant('HSET'), key, field, value),
  fc.tuple(fc.constant('HGET'), key, field),
  fc.tuple(fc.constant('HDEL'), key, field),
  fc.tuple(fc.constant('HINCRBY'), key, field, number),
  fc.tuple(fc.constant('HGETALL'), key),
  fc.tuple(fc.constant('RPUSH'), key, value),
  fc.tuple(fc.constant('LPUSH'), key, value),
  fc.tuple(fc.constant('LPOP'), key),
  fc.tuple(fc.constant('LRANGE'), key, index, index),
  fc.tuple(fc.constant('LINDEX'), key, index),
  fc.tuple(fc.constant('SADD'), key, value),
  fc.tuple(fc.constant('SREM'), key, value),
  fc.tuple(fc.constant('SISMEMBER'), key, value),
  fc.tuple(fc.constant('SCARD'), key),
  fc.tuple(fc.constant('SMEMBERS'), key),
  fc.tuple(fc.constant('ZADD'), key, number, value),
  fc.tuple(fc.constant('ZINCRBY'), key, number, value),
  fc.tuple(fc.constant('ZSCORE'), key, value),
  fc.tuple(fc.constant('ZRANGE'), key, index, index, fc.constant('WITHSCORES')),
  fc.tuple(fc.constant('ZRANK'), key, value),
  fc.tuple(fc.constant('ZREM'), key, value),
).map((parts) => [...parts]);

function comparable(args: readonly string[], reply: Reply): unknown {
  if (reply.kind === 'array') {
    const items = reply.items.map((item) => comparable([], item));
    return args[0] === 'SMEMBERS' ? items.map((item) => JSON.stringify(item)).sort() : items;
  }
  if (reply.kind === 'integer') return { kind: 'integer', value: String(reply.value) };
  return reply;
}

const describeWithRedis = ENGINES.includes('redis') ? describe : describe.skip;

describeWithRedis('memory engine matches redis-server on random command sequences', () => {
  let memory: Engine;
  let redis: Engine;
  const caller = { user: 'default', address: 'differential' };
  beforeAll(() => {
    const url = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/0');
    url.pathname = '/12';
    redis = createRedisEngine({ url: url.toString() });
  });
  afterAll(async () => {
    await redis.close();
  });

  it('gives the same typed reply to every command', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 25 }), async (commands) => {
        memory = createMemoryEngine();
        await redis.execute([['FLUSHDB']], { transaction: false, caller });
        try {
          const expected = await redis.execute(commands, { transaction: false, caller });
          const actual = await memory.execute(commands, { transaction: false, caller });
          commands.forEach((args, position) => {
            expect({ command: args, reply: comparable(args, actual[position]) }).toEqual({ command: args, reply: comparable(args, expected[position]) });
          });
        } finally {
          await memory.close();
        }
      }),
      { numRuns: 150 },
    );
  });
});
