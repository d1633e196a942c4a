// Issue 26, production gap 3: the Redis transport kept whatever Redis answered. ioredis's decoder
// buffers a reply until it ends, so a huge value under the prefix (a 64 MiB string read by the usage
// view, a set of 450,000 members read as the deny list) or a hostile Redis took the app's memory
// with it, where the REST transport stops at MAX_ANSWER_BYTES. One reply is now bounded by the same
// figure while it is read (store/redis/redis-reply-bound.ts): the command fails as a store failure (the
// failure mode applies) naming the bound, the connection is dropped, and the next command is answered
// on a new one. A real redis-server of the test's own, so its INFO counts only what this test sent;
// and a Redis Cluster, whose node connections ioredis opens itself.
import { Redis } from '@upstash/redis';
import { parseStoreUrl, type RedisAddress } from '../../../shared/store-address';
import type { Cluster } from 'ioredis';
import { openRedis } from '../../../server/src/store/redis/redis-connection';
import { RedisRequester } from '../../../server/src/store/redis/redis-requester';
import { MAX_ANSWER_BYTES } from '../../../server/src/store/rest/rest-requester';
import { StoreUnavailableError } from '../../../server/src/store/rest/rest-connections';
import { eventually } from '../../fixtures/eventually';
import { asText } from '../../fixtures/plain-replies';
import { RedisClient } from '../../fixtures/redis-client';
import { ThrowawayRedisServer } from '../../fixtures/redis-server';
import { describeWithRedisBinary, describeWithRedisCluster } from '../../support/installed-program';
import { useRedisCluster } from '../../support/redis-topologies';

const MIB = 1024 * 1024;
const BIG_STRING_BYTES = 4 * MAX_ANSWER_BYTES;
/** 450,000 members of 40 bytes: a 20 MiB SMEMBERS reply of small elements (no declared length over the bound). */
const GIANT_SET_MEMBERS = 450_000;
/** The plugin's timeout here: long enough for a 15 MiB reply on a loaded machine. */
const TIMEOUT_MS = 20_000;

const failureOf = (promise: Promise<unknown>): Promise<unknown> => promise.then(() => 'answered', (failure: unknown) => failure);
/** Whether a command on `redis` is answered again (after the dropped connection is opened again). */
const answeredAgain = (redis: Redis): Promise<unknown> => eventually(() => failureOf(redis.set('rl:small', 'fine')), (seen) => seen === 'answered');
const tooLarge = `more than the plugin reads in one reply (${MAX_ANSWER_BYTES} bytes)`;

describeWithRedisBinary('a Redis reply over MAX_ANSWER_BYTES fails its command while it is read, and drops the connection', () => {
  let redis: ThrowawayRedisServer;
  let setup: RedisClient;
  let requester: RedisRequester;
  let direct: Redis;
  beforeAll(async () => {
    redis = await ThrowawayRedisServer.start();
    setup = await RedisClient.connect(redis.url);
    // Made inside Redis: no test buffer holds them.
    await setup.send(['SETRANGE', 'rl:big', String(BIG_STRING_BYTES - 1), 'x']);
    await setup.send(['EVAL', "for i = 1, tonumber(ARGV[1]) do redis.call('SADD', KEYS[1], string.format('%040d', i)) end", '1', 'rl:denyList:all', String(GIANT_SET_MEMBERS)]);
    requester = new RedisRequester(openRedis((parseStoreUrl(redis.url) as { address: RedisAddress }).address, TIMEOUT_MS), TIMEOUT_MS);
    direct = new Redis(requester);
  });
  afterAll(async () => {
    requester?.close();
    setup?.close();
    await redis?.remove();
  });

  const sentByRedis = async (): Promise<number> => Number(/total_net_output_bytes:(\d+)/.exec(asText(await setup.send(['INFO', 'stats'])))![1]);

  it('a string of 4 times the bound: refused at its declared length, and Redis could send only what socket buffers hold', async () => {
    const before = await sentByRedis();
    const failure = await failureOf(direct.get('rl:big'));
    expect(failure).toBeInstanceOf(StoreUnavailableError);
    expect((failure as Error).message).toBe(`Redis did not answer: Redis answered more than the plugin reads in one reply (${MAX_ANSWER_BYTES} bytes): the connection was dropped`);
    // What Redis wrote before it saw the connection closed: loopback socket buffers, a few MiB.
    expect(await sentByRedis()).toBeLessThan(before + MAX_ANSWER_BYTES);
    expect(await answeredAgain(direct)).toBe('answered');
  });

  it('a set of 450,000 small members: refused once the bytes read pass the bound, and the next command is answered', async () => {
    const failure = await failureOf(direct.smembers('rl:denyList:all'));
    expect(failure).toBeInstanceOf(StoreUnavailableError);
    expect((failure as Error).message).toContain(tooLarge);
    expect(await answeredAgain(direct)).toBe('answered');
    expect(await direct.get('rl:small')).toBe('fine');
  });

  it('replies under the bound are read whole: a string of 15 MiB', async () => {
    await setup.send(['SETRANGE', 'rl:under', String(15 * MIB - 1), 'y']);
    const value = await direct.get<string>('rl:under');
    expect([value?.length, value?.endsWith('y')]).toEqual([15 * MIB, true]);
  });
});

describeWithRedisCluster('a reply over the bound on a Redis Cluster node', () => {
  const cluster = useRedisCluster();

  it('fails its command and the node connection, and the cluster answers the next command', async () => {
    const owner = await cluster().slotOwner(await cluster().keySlot('rl:big'));
    await RedisClient.ask(owner.url, ['SETRANGE', 'rl:big', String(BIG_STRING_BYTES - 1), 'x']);
    const client = openRedis((parseStoreUrl(cluster().url) as { address: RedisAddress }).address, TIMEOUT_MS);
    const requester = new RedisRequester(client, TIMEOUT_MS, client as Cluster);
    try {
      const redis = new Redis(requester);
      const failure = await failureOf(redis.get('rl:big'));
      expect([failure instanceof StoreUnavailableError, (failure as Error).message]).toEqual([true, expect.stringContaining(tooLarge)]);
      expect(await answeredAgain(redis)).toBe('answered');
    } finally {
      requester.close();
    }
  });
});
