// Finding 4: `SRANDMEMBER tiny -100000000` stalled the memory engine for 107 s and then killed it
// with a full heap. Every reply now has a bound (an engine option): counts that ask for more than
// the data holds are refused before anything is allocated, pops check before removing anything,
// and any other reply past the bound answers an error instead of reaching the encoder.
import { useEngine } from './memory-engine-harness';

const tooManyElements = (elements: number | string, limit: number): { error: string } => ({
  error: `ERR reply too large: ${elements} elements, more than this server's limit of ${limit} (maxReplyElements)`,
});

describe('count-driven replies are bounded', () => {
  const current = useEngine();

  it('answers SADD tiny a; SRANDMEMBER tiny -100000000 with an error within 1 s, and keeps serving', async () => {
    const { run } = current();
    await run('SADD', 'tiny', 'a');
    const started = Date.now();
    expect(await run('SRANDMEMBER', 'tiny', '-100000000')).toEqual(tooManyElements(100000000, 1000000));
    expect(await run('HSET', 'h', 'f', 'v')).toBe(1);
    expect(await run('HRANDFIELD', 'h', '-100000000', 'WITHVALUES')).toEqual(tooManyElements(200000000, 1000000));
    expect(await run('ZADD', 'z', '1', 'm')).toBe(1);
    expect(await run('ZRANDMEMBER', 'z', '-600000', 'WITHSCORES')).toEqual(tooManyElements(1200000, 1000000));
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await run('SRANDMEMBER', 'tiny', '-3')).toEqual(['a', 'a', 'a']);
    expect(await run('HRANDFIELD', 'h', '-2', 'WITHVALUES')).toEqual(['f', 'v', 'f', 'v']);
    expect(await run('SCARD', 'tiny')).toBe(1);
  });
});

describe('the reply bound is an engine option and holds for every reply', () => {
  const current = useEngine({ maxReplyElements: 10, maxReplyBytes: 100 });

  it('refuses a reply past the element bound, and a pop past it removes nothing', async () => {
    const { run } = current();
    const eleven = Array.from({ length: 11 }, (_, index) => `m${index}`);
    await run('RPUSH', 'list', ...eleven);
    await run('SADD', 'set', ...eleven);
    await run('ZADD', 'zset', ...eleven.flatMap((member, index) => [index, member]));
    expect(await run('LRANGE', 'list', '0', '-1')).toEqual(tooManyElements('more than 10', 10));
    expect(await run('LPOP', 'list', '11')).toEqual(tooManyElements(11, 10));
    expect(await run('SPOP', 'set', '11')).toEqual(tooManyElements(11, 10));
    expect(await run('ZPOPMIN', 'zset', '11')).toEqual(tooManyElements(11, 10));
    expect([await run('LLEN', 'list'), await run('SCARD', 'set'), await run('ZCARD', 'zset')]).toEqual([11, 11, 11]);
    expect(await run('LRANGE', 'list', '0', '9')).toEqual(eleven.slice(0, 10));
  });

  it('refuses an array reply past the byte bound, never a single value', async () => {
    const { run } = current();
    await run('MSET', 'a', 'x'.repeat(60), 'b', 'x'.repeat(60));
    expect(await run('MGET', 'a', 'b')).toEqual({ error: "ERR reply too large: more than 100 bytes, more than this server's limit of 100 (maxReplyBytes)" });
    await run('SET', 'large', 'x'.repeat(150));
    expect(await run('GETDEL', 'large')).toBe('x'.repeat(150));
    await run('RPUSH', 'values', 'y'.repeat(60), 'y'.repeat(60));
    expect(await run('RPOP', 'values', '2')).toEqual({ error: "ERR reply too large: 120 bytes, more than this server's limit of 100 (maxReplyBytes)" });
    expect(await run('LLEN', 'values')).toBe(2);
  });
});
