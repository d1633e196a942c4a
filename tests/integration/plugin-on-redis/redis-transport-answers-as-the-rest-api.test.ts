// Issue 26: the plugin's Redis transport (store/redis/redis-requester.ts) must answer @upstash/redis as
// the REST API does, or the admin API, the deny list and the limiters would read something else on
// Redis than on Upstash. A property test sends the same random sequences of the commands the plugin
// uses (strings, counters, expiry, hashes, sets, sorted sets, scripts, pipelines, transactions,
// errors) through @upstash/redis over the Redis transport and over the REST transport
// (store/rest/rest-requester.ts) to the key-value REST server in front of the same kind of Redis (its
// redis engine), and compares every answer and error.
import fc from 'fast-check';
import { Redis } from '@upstash/redis';
import { parseStoreUrl, type RedisAddress } from '../../../shared/store-address';
import { openRedis } from '../../../server/src/store/redis/redis-connection';
import { RedisRequester } from '../../../server/src/store/redis/redis-requester';
import { PipeliningRequester } from '../../../server/src/store/rest/rest-requester';
import { startServer } from '../../support/kv-servers';
import type { KvRestServer } from '../../../mock';
import { describeWithRedisOfTheRun } from '../../support/installed-program';

type Step = (redis: Redis, key: (name: string) => string) => Promise<unknown>;

const value = fc.oneof(fc.string({ maxLength: 8 }), fc.integer({ min: -1000, max: 1000 }).map(String));
const name = fc.constantFrom('a', 'b', 'c');
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.tuple(name, value).map(([n, v]): Step => (redis, key) => redis.set(key(n), v)),
  name.map((n): Step => (redis, key) => redis.get(key(n))),
  fc.tuple(name, fc.integer({ min: -5, max: 5 })).map(([n, by]): Step => (redis, key) => redis.incrby(key(n), by)),
  fc.tuple(name, fc.integer({ min: 1, max: 100_000 })).map(([n, ms]): Step => (redis, key) => redis.pexpire(key(n), ms)),
  fc.tuple(name, name).map(([x, y]): Step => (redis, key) => redis.mget(key(x), key(y))),
  fc.tuple(name, name, value).map(([n, field, v]): Step => (redis, key) => redis.hset(key(n), { [field]: v })),
  fc.tuple(name, name).map(([n, field]): Step => (redis, key) => redis.hmget(key(n), field, 'z')),
  fc.tuple(name, value).map(([n, member]): Step => (redis, key) => redis.sadd(key(n), member)),
  fc.tuple(name, value).map(([n, member]): Step => (redis, key) => redis.sismember(key(n), member)),
  fc.tuple(name, fc.integer({ min: 0, max: 99 }), value).map(([n, score, member]): Step => (redis, key) => redis.zadd(key(n), { score, member })),
  fc.tuple(name, value).map(([n, member]): Step => (redis, key) => redis.zmscore(key(n), [member, 'z'])),
  fc.tuple(name, value).map(([n, v]): Step => (redis, key) => redis.eval("redis.call('SET', KEYS[1], ARGV[1]) return {redis.call('GET', KEYS[1]), 7}", [key(n)], [v])),
  fc.tuple(name, value).map(([n, v]): Step => (redis, key) => redis.multi().set(key(n), v).incr(key(n)).get(key(n)).exec()),
  fc.tuple(name, name).map(([x, y]): Step => (redis, key) => redis.pipeline().get(key(x)).del(key(y)).exists(key(x), key(y)).exec()),
);

/** An answer or the error text it failed with, for comparison. */
const settle = (promise: Promise<unknown>): Promise<unknown> => promise.then((result) => ({ result }), (failure: Error) => ({ error: failure.message.replace(/ script: \w+, on @user_script:\d+\.?/, '') }));

describeWithRedisOfTheRun('the Redis transport answers @upstash/redis as the REST API does', () => {
  let kv: KvRestServer;
  let requester: RedisRequester;
  let restRequester: PipeliningRequester;
  let direct: Redis;
  let rest: Redis;
  beforeAll(async () => {
    kv = await startServer('redis');
    requester = new RedisRequester(openRedis((parseStoreUrl(process.env.REDIS_URL!) as { address: RedisAddress }).address, 5000), 5000);
    direct = new Redis(requester);
    restRequester = new PipeliningRequester(kv.url, kv.token, 5000);
    rest = new Redis(restRequester);
  });
  afterAll(async () => {
    requester.close();
    restRequester.close();
    await kv.close();
  });

  it('any sequence of the plugin\'s commands gets the same answers and errors on both', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        run += 1;
        const keys = { direct: (n: string) => `transport:${run}:direct:${n}`, rest: (n: string) => `transport:${run}:rest:${n}` };
        for (const send of steps) {
          const [onRedis, onRest] = [await settle(send(direct, keys.direct)), await settle(send(rest, keys.rest))];
          expect(onRedis).toEqual(onRest);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('a command error fails alone, inside a pipeline too', async () => {
    await direct.set('transport:string', 'x');
    const [wrongType, fine] = await Promise.allSettled([direct.lpush('transport:string', 'y'), direct.incr('transport:counter')]);
    expect(wrongType).toMatchObject({ status: 'rejected', reason: { name: 'UpstashError', message: expect.stringContaining('WRONGTYPE') } });
    expect(fine).toMatchObject({ status: 'fulfilled' });
  });
});
