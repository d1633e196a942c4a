// The plugin's store transport under the real @upstash/redis client: same results and errors as the
// default transport, commands of one tick in one /pipeline request, a failed command failing alone.
import { Redis } from '@upstash/redis';
import { PipeliningRequester } from '../../../server/src/store/rest/rest-requester';
import { startStoreProxy, type StoreProxy } from './store-proxy';
import { type KvRestServer, startKvRestServer } from './support';

describe('PipeliningRequester', () => {
  let kv: KvRestServer;
  let store: StoreProxy;
  let requester: PipeliningRequester;
  let redis: Redis;
  beforeAll(async () => {
    kv = await startKvRestServer();
    store = await startStoreProxy(kv.url);
    requester = new PipeliningRequester(store.url, kv.token, 2000);
    redis = new Redis(requester);
  });
  afterAll(async () => {
    requester.close();
    await store.close();
    await kv.close();
  });

  it('returns what the default client returns', async () => {
    const reference = new Redis({ url: kv.url, token: kv.token });
    await redis.set('req:s', 'v', { ex: 100 });
    await redis.hset('req:h', { a: 1, b: 'x' });
    await redis.rpush('req:l', 'a', 'b');
    for (const read of [(client: Redis) => client.get('req:s'), (client: Redis) => client.hgetall('req:h'), (client: Redis) => client.lrange('req:l', 0, -1), (client: Redis) => client.get('req:none')]) {
      expect(await read(redis)).toEqual(await read(reference));
    }
    expect(await redis.eval('return {KEYS[1], ARGV[1], 3}', ['k'], ['a'])).toEqual(['k', 'a', 3]);
  });

  it('rejects a command error as the default client does, without failing the others of its batch', async () => {
    await redis.set('req:string', 'x');
    const [wrongType, fine] = await Promise.allSettled([redis.lpush('req:string', 'y'), redis.incr('req:counter')]);
    expect(wrongType).toMatchObject({ status: 'rejected', reason: { name: 'UpstashError', message: expect.stringContaining('WRONGTYPE') } });
    expect(fine).toEqual({ status: 'fulfilled', value: 1 });
  });

  it('sends the commands of one tick as one request, and pipelines and transactions as they are', async () => {
    const before = store.count();
    const results = await Promise.all(Array.from({ length: 20 }, (_, index) => redis.incr(`req:n${index % 4}`)));
    expect(results.sort()).toEqual([1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5]);
    expect(store.count() - before).toBe(1);
    expect(await redis.pipeline().set('req:p', 1).incr('req:p').exec()).toEqual(['OK', 2]);
    expect(await redis.multi().incr('req:p').get('req:p').exec()).toEqual([3, 3]);
  });

  it('reaches a store on an IPv6 literal URL', async () => {
    const v6 = await startKvRestServer({ host: '::1' });
    const client = new PipeliningRequester(v6.url, v6.token, 2000);
    try {
      expect(v6.url).toMatch(/^http:\/\/\[::1\]:\d+$/);
      expect(await new Redis(client).set('v6', 'yes')).toBe('OK');
    } finally {
      client.close();
      await v6.close();
    }
  });

  it("passes on the store's refusal of a wrong token", async () => {
    const wrong = new PipeliningRequester(kv.url, 'not-the-token', 2000);
    try {
      const client = new Redis(wrong);
      await expect(client.get('x')).rejects.toThrow(/unauthori[sz]ed|token/i);
      const both = await Promise.allSettled([client.get('x'), client.get('y')]);
      expect(both.map((result) => result.status)).toEqual(['rejected', 'rejected']);
      expect(String((both[0] as PromiseRejectedResult).reason)).toMatch(/unauthori[sz]ed|token/i);
    } finally {
      wrong.close();
    }
  });
});
