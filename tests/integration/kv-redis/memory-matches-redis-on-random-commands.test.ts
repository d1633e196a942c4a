// Property-based differential test: random command sequences over a small key space get the same
// typed replies (simple vs bulk, error texts included) from the memory engine and from a real
// redis-server behind the redis engine (Upstash's answer where the memory engine follows it,
// upstash-departures.ts). Runs when REDIS_URL is set (mandatory under REQUIRE_REDIS=1).
import fc from 'fast-check';
import type { Engine } from '../../../mock';
import { createMemoryEngine } from '../../../mock/kv-rest/memory';
import { createRedisEngine } from '../../../mock/kv-rest/redis';
import type { Reply } from '../../../mock/kv-rest/reply';
import { describeWithRedisOfTheRun } from '../../support/installed-program';
import { executeAsSent, executeOnRedisAsSent } from '../../support/engine-commands';
import { expectedReply } from './upstash-departures';

const key = fc.constantFrom('a', 'b', 'c');
/** HyperLogLogs live apart: their stored bytes are an intended difference (dense vs Redis's sparse). */
const hllKey = fc.constantFrom('h1', 'h2');
const field = fc.constantFrom('f', 'g');
const value = fc.constantFrom('1', 'x', '2.5', '', '-3', '10');
const number = fc.constantFrom('1', '-2', '0', '7', 'x');
const index = fc.constantFrom('0', '1', '-1', '5');

const member = fc.constantFrom('m', 'n', 'o');
const score = fc.constantFrom('1', '-2', '0', '2.5', 'inf', '-inf', 'x');
const scoreBound = fc.constantFrom('-inf', '+inf', '(1', '0', '2.5', 'x');
const lexBound = fc.constantFrom('-', '+', '[m', '(n', 'x');
const bit = fc.constantFrom('0', '1', '2');
const offset = fc.constantFrom('0', '7', '15', '-1');
const seconds = fc.constantFrom('100', '200', '0', '-1');
const anyOf = (...commands: fc.Arbitrary<readonly string[]>[]) => fc.oneof(...commands);
const c = (name: string, ...args: fc.Arbitrary<string>[]) => fc.tuple(fc.constant(name), ...args);

/** Every family, with arguments drawn so that wrong types, bad numbers and edge cases come up often. */
const command: fc.Arbitrary<string[]> = anyOf(
  // strings and counters
  c('SET', key, value), c('SET', key, value, fc.constantFrom('NX', 'XX', 'GET', 'KEEPTTL')), c('GET', key), c('GETSET', key, value), c('GETDEL', key),
  c('SETNX', key, value), c('APPEND', key, value), c('STRLEN', key), c('GETRANGE', key, index, index), c('SETRANGE', key, offset, value),
  c('INCR', key), c('DECR', key), c('INCRBY', key, number), c('DECRBY', key, number), c('INCRBYFLOAT', key, value), c('MSET', key, value, key, value),
  c('MGET', key, key, key), c('MSETNX', key, value, key, value), c('SUBSTR', key, index, index),
  // the whole keyspace in one SCAN step, by type (issue 29: the official client's suite scans by type)
  c('SCAN', fc.constant('0'), fc.constant('COUNT'), fc.constant('100'), fc.constant('TYPE'), fc.constantFrom('string', 'list', 'set', 'zset', 'hash', 'ZSET', 'none', 'bogus')),
  // generic keys and expiry (whole seconds: both sides round the same way)
  c('DEL', key, key), c('UNLINK', key), c('EXISTS', key, key), c('TYPE', key), c('RENAME', key, key), c('RENAMENX', key, key), c('COPY', key, key),
  c('EXPIRE', key, seconds), c('EXPIRE', key, seconds, fc.constantFrom('NX', 'XX', 'GT', 'LT')), c('PERSIST', key), c('TTL', key), c('TOUCH', key, key),
  c('DBSIZE'),
  // hashes
  c('HSET', key, field, value), c('HSETNX', key, field, value), c('HGET', key, field), c('HMGET', key, field, field), c('HDEL', key, field),
  c('HLEN', key), c('HEXISTS', key, field), c('HINCRBY', key, field, number), c('HINCRBYFLOAT', key, field, value), c('HGETALL', key),
  c('HKEYS', key), c('HVALS', key), c('HSTRLEN', key, field),
  // lists
  c('RPUSH', key, value), c('LPUSH', key, value, value), c('RPUSHX', key, value), c('LPOP', key), c('RPOP', key, fc.constantFrom('1', '2')),
  c('LRANGE', key, index, index), c('LINDEX', key, index), c('LLEN', key), c('LSET', key, index, value), c('LREM', key, index, value),
  c('LTRIM', key, index, index), c('LINSERT', key, fc.constantFrom('BEFORE', 'AFTER'), value, value), c('LPOS', key, value),
  c('LMOVE', key, key, fc.constantFrom('LEFT', 'RIGHT'), fc.constantFrom('LEFT', 'RIGHT')), c('RPOPLPUSH', key, key),
  // sets
  c('SADD', key, value, value), c('SREM', key, value), c('SISMEMBER', key, value), c('SMISMEMBER', key, value, value), c('SCARD', key),
  c('SMEMBERS', key), c('SINTER', key, key), c('SUNION', key, key), c('SDIFF', key, key), c('SINTERSTORE', key, key, key), c('SUNIONSTORE', key, key, key),
  c('SDIFFSTORE', key, key, key), c('SMOVE', key, key, value), c('SINTERCARD', fc.constant('2'), key, key),
  // sorted sets
  c('ZADD', key, score, member), c('ZADD', key, fc.constantFrom('NX', 'XX', 'GT', 'LT', 'CH', 'INCR'), score, member), c('ZINCRBY', key, score, member),
  c('ZSCORE', key, member), c('ZMSCORE', key, member, member), c('ZCARD', key), c('ZRANK', key, member), c('ZREVRANK', key, member), c('ZREM', key, member),
  c('ZRANGE', key, index, index, fc.constant('WITHSCORES')), c('ZRANGE', key, scoreBound, scoreBound, fc.constant('BYSCORE')),
  c('ZRANGE', key, lexBound, lexBound, fc.constant('BYLEX')), c('ZREVRANGE', key, index, index), c('ZRANGEBYSCORE', key, scoreBound, scoreBound, fc.constant('WITHSCORES')),
  c('ZREVRANGEBYSCORE', key, scoreBound, scoreBound), c('ZRANGEBYLEX', key, lexBound, lexBound), c('ZCOUNT', key, scoreBound, scoreBound),
  c('ZLEXCOUNT', key, lexBound, lexBound), c('ZREMRANGEBYRANK', key, index, index), c('ZREMRANGEBYSCORE', key, scoreBound, scoreBound),
  c('ZPOPMIN', key), c('ZPOPMAX', key, fc.constantFrom('1', '2')), c('ZUNION', fc.constant('2'), key, key, fc.constant('WITHSCORES')),
  c('ZINTER', fc.constant('2'), key, key, fc.constant('WITHSCORES')), c('ZDIFF', fc.constant('2'), key, key), c('ZUNIONSTORE', key, fc.constant('2'), key, key),
  c('ZINTERSTORE', key, fc.constant('2'), key, key, fc.constant('AGGREGATE'), fc.constantFrom('MIN', 'MAX', 'SUM')), c('ZRANGESTORE', key, key, index, index),
  c('ZINTERCARD', fc.constant('2'), key, key),
  // bitmaps and HyperLogLog
  c('SETBIT', key, offset, bit), c('GETBIT', key, offset), c('BITCOUNT', key), c('BITCOUNT', key, index, index), c('BITPOS', key, bit),
  c('BITOP', fc.constantFrom('AND', 'OR', 'XOR'), key, key, key), c('PFADD', hllKey, value, value), c('PFCOUNT', hllKey, hllKey), c('PFMERGE', hllKey, hllKey),
  // scripts
  c('EVAL', fc.constantFrom("return redis.call('INCR', KEYS[1])", "return {redis.call('GET', KEYS[1]), tonumber(ARGV[1])}", 'return tostring(tonumber(ARGV[1]))', "return redis.pcall('HGET', KEYS[1], 'f')"), fc.constant('1'), key, number),
).map((parts) => [...parts]);

/** Replies whose order Redis leaves to its encodings (intsets, listpacks, hash tables). */
const UNORDERED = new Set(['SMEMBERS', 'SINTER', 'SUNION', 'SDIFF']);

function comparable(args: readonly string[], reply: Reply): unknown {
  // A SCAN step lists keys in Redis's hash-table order, the memory engine's in creation order.
  if (args[0] === 'SCAN' && reply.kind === 'array') return [comparable([], reply.items[0]), comparable(['SMEMBERS'], reply.items[1])];
  if (reply.kind === 'array') {
    const items = reply.items.map((item) => comparable([], item));
    return UNORDERED.has(args[0]) ? items.map((item) => JSON.stringify(item)).sort() : items;
  }
  if (reply.kind === 'integer') return { kind: 'integer', value: String(reply.value) };
  return reply;
}

describeWithRedisOfTheRun('memory engine matches redis-server on random command sequences', () => {
  let memory: Engine;
  let redis: Engine;
  let redisUrl: string;
  const caller = { user: 'default', address: 'differential' };
  beforeAll(() => {
    const url = new URL(process.env.REDIS_URL!);
    url.pathname = '/12';
    redisUrl = url.toString();
    redis = createRedisEngine({ url: redisUrl });
  });
  afterAll(async () => {
    await redis.close();
  });

  it('gives the same typed reply to every command', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 25 }), async (commands) => {
        memory = createMemoryEngine();
        await executeAsSent(redis, [['FLUSHDB']], { transaction: false, caller });
        try {
          const fromRedis = await executeOnRedisAsSent(redis, redisUrl, commands, { transaction: false, caller });
          const expected = fromRedis.map((reply, at) => expectedReply(commands[at], reply));
          const actual = await executeAsSent(memory, commands, { transaction: false, caller });
          commands.forEach((args, position) => {
            expect({ command: args, reply: comparable(args, actual[position]) }).toEqual({ command: args, reply: comparable(args, expected[position]) });
          });
        } finally {
          await memory.close();
        }
      }),
      // A fixed seed keeps CI repeatable; FAST_CHECK_SEED and FAST_CHECK_RUNS (with --testTimeout) explore further by hand.
      { numRuns: Number(process.env.FAST_CHECK_RUNS ?? 150), seed: Number(process.env.FAST_CHECK_SEED ?? 20261122) },
    );
  });
});
