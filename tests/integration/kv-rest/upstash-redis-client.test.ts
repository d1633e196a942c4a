// The official @upstash/redis client against our server: single commands, auto-pipelining,
// transactions, both response encodings, scripts and pub/sub.
import { Redis } from '@upstash/redis';
import type { KvRestServer } from '../../../mock';
import { describeEachEngine, startServer } from '../../support/kv-servers';

describeEachEngine('@upstash/redis client', (engine) => {
  let server: KvRestServer;
  beforeAll(async () => {
    server = await startServer(engine);
  });
  afterAll(() => server.close());

  const client = (options: { responseEncoding?: false; enableAutoPipelining?: boolean } = {}) =>
    new Redis({ url: server.url, token: server.token, retry: false, ...options });

  it.each([
    ['base64 responses (the default)', {}],
    ['plain responses', { responseEncoding: false as const }],
  ])('runs everyday commands with %s', async (name, options) => {
    const redis = client(options);
    const key = (suffix: string) => `client:${name.split(' ')[0]}:${suffix}`;
    expect(await redis.set(key('str'), 'héllo')).toBe('OK');
    expect(await redis.get(key('str'))).toBe('héllo');
    expect(await redis.set(key('obj'), { a: 1, b: [true, null] })).toBe('OK');
    expect(await redis.get(key('obj'))).toEqual({ a: 1, b: [true, null] });
    expect(await redis.incrby(key('n'), 5)).toBe(5);
    expect(await redis.hset(key('h'), { f1: 'v1', f2: 2 })).toBe(2);
    expect(await redis.hgetall(key('h'))).toEqual({ f1: 'v1', f2: 2 });
    expect(await redis.rpush(key('l'), 'a', 'b')).toBe(2);
    expect(await redis.lrange(key('l'), 0, -1)).toEqual(['a', 'b']);
    expect(await redis.zadd(key('z'), { score: 1.5, member: 'm' })).toBe(1);
    expect(await redis.zrange(key('z'), 0, -1, { withScores: true })).toEqual(['m', 1.5]);
    expect(await redis.ping()).toBe('PONG');
    await redis.del(key('str'), key('obj'), key('n'), key('h'), key('l'), key('z'));
  });

  it('batches concurrent commands through auto-pipelining and answers each', async () => {
    const redis = client({ enableAutoPipelining: true });
    const results = await Promise.all([redis.set('ap:a', 1), redis.incr('ap:b'), redis.get('ap:a'), redis.exists('ap:a', 'ap:b')]);
    expect(results).toEqual(['OK', 1, 1, 2]);
  });

  it('runs multi() as one transaction and pipeline() in order', async () => {
    const redis = client();
    const transaction = redis.multi();
    transaction.set('tx:a', 'x');
    transaction.append('tx:a', 'y');
    transaction.get('tx:a');
    expect(await transaction.exec()).toEqual(['OK', 2, 'xy']);
    const pipeline = redis.pipeline();
    pipeline.incr('tx:c');
    pipeline.incr('tx:c');
    expect(await pipeline.exec()).toEqual([1, 2]);
  });

  it('surfaces a failed command as an error', async () => {
    const redis = client();
    await redis.set('client:text', 'abc');
    await expect(redis.incr('client:text')).rejects.toThrow('ERR value is not an integer or out of range');
  });

  it('runs scripts with eval, evalsha and scriptLoad', async () => {
    const redis = client();
    const script = "return {KEYS[1], ARGV[1], redis.call('INCRBY', KEYS[1], ARGV[1])}";
    expect(await redis.eval(script, ['script:k'], ['3'])).toEqual(['script:k', 3, 3]);
    const sha = await redis.scriptLoad(script);
    expect(await redis.evalsha(sha, ['script:k'], ['4'])).toEqual(['script:k', 4, 7]);
    expect(await redis.scriptExists(sha, 'f'.repeat(40))).toEqual([1, 0]);
  });

  it('delivers published messages to a subscriber', async () => {
    const redis = client();
    const subscriber = redis.subscribe<{ n: number }>(['client-channel']);
    const received = new Promise<unknown>((resolve) => subscriber.on('message', (event) => resolve(event.message)));
    await new Promise<void>((resolve) => subscriber.on('subscribe', () => resolve()));
    expect(await redis.publish('client-channel', { n: 1 })).toBe(1);
    expect(await received).toEqual({ n: 1 });
    await subscriber.unsubscribe();
  });
});
