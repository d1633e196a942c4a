// Hash commands of the memory engine, with Redis 7.0.15's replies and error texts.
import { useEngine } from './memory-engine-harness';

describe('memory engine: hashes', () => {
  const subject = useEngine();
  const run = (...args: (string | number)[]) => subject().run(...args);

  it('sets fields and counts only new ones', async () => {
    expect(await run('HSET', 'h', 'a', '1', 'b', '2')).toBe(2);
    expect(await run('HSET', 'h', 'a', '3', 'c', '4')).toBe(1);
    expect(await run('HMSET', 'h', 'd', '5')).toBe('OK');
    expect(await run('HSET', 'h', 'a')).toEqual({ error: "ERR wrong number of arguments for 'hset' command" });
    expect(await run('HGETALL', 'h')).toEqual(['a', '3', 'b', '2', 'c', '4', 'd', '5']);
  });

  it('reads fields, lengths and existence', async () => {
    await run('HSET', 'h', 'a', 'one', 'b', 'two');
    expect(await run('HGET', 'h', 'a')).toBe('one');
    expect(await run('HGET', 'h', 'x')).toBeNull();
    expect(await run('HMGET', 'h', 'a', 'x', 'b')).toEqual(['one', null, 'two']);
    expect(await run('HMGET', 'missing', 'a')).toEqual([null]);
    expect(await run('HKEYS', 'h')).toEqual(['a', 'b']);
    expect(await run('HVALS', 'h')).toEqual(['one', 'two']);
    expect([await run('HLEN', 'h'), await run('HLEN', 'missing')]).toEqual([2, 0]);
    expect([await run('HEXISTS', 'h', 'a'), await run('HEXISTS', 'h', 'x')]).toEqual([1, 0]);
    expect([await run('HSTRLEN', 'h', 'b'), await run('HSTRLEN', 'h', 'x')]).toEqual([3, 0]);
    expect(await run('HGETALL', 'missing')).toEqual([]);
  });

  it('sets a field only when absent with HSETNX', async () => {
    expect(await run('HSETNX', 'h', 'a', '1')).toBe(1);
    expect(await run('HSETNX', 'h', 'a', '2')).toBe(0);
    expect(await run('HGET', 'h', 'a')).toBe('1');
  });

  it('deletes fields and removes the emptied hash', async () => {
    await run('HSET', 'h', 'a', '1', 'b', '2');
    expect(await run('HDEL', 'h', 'a', 'x')).toBe(1);
    expect(await run('HDEL', 'h', 'b')).toBe(1);
    expect(await run('EXISTS', 'h')).toBe(0);
    expect(await run('HDEL', 'missing', 'a')).toBe(0);
  });

  it('increments integers and floats with hash-specific errors', async () => {
    expect(await run('HINCRBY', 'h', 'n', '5')).toBe(5);
    expect(await run('HINCRBY', 'h', 'n', '-7')).toBe(-2);
    expect(await run('HINCRBY', 'h', 'n', 'x')).toEqual({ error: 'ERR value is not an integer or out of range' });
    expect(await subject().reply('HINCRBY', 'h', 'n', '9223372036854775807')).toEqual({ kind: 'integer', value: 9223372036854775805n });
    expect(await run('HINCRBY', 'h', 'n', '3')).toEqual({ error: 'ERR increment or decrement would overflow' });
    expect(await run('HGET', 'h', 'n')).toBe('9223372036854775805');
    expect(await run('HINCRBYFLOAT', 'h', 'f', '10.5')).toBe('10.5');
    expect(await run('HINCRBYFLOAT', 'h', 'f', '0.1')).toBe('10.6');
    expect(await run('HINCRBY', 'h', 'f', '1')).toEqual({ error: 'ERR hash value is not an integer' });
    await run('HSET', 'h', 's', 'abc');
    expect(await run('HINCRBYFLOAT', 'h', 's', '1')).toEqual({ error: 'ERR hash value is not a float' });
    expect(await run('HINCRBYFLOAT', 'h', 'f', 'inf')).toEqual({ error: 'ERR value is NaN or Infinity' });
    expect(await run('HINCRBYFLOAT', 'h', 'f', 'x')).toEqual({ error: 'ERR value is not a valid float' });
  });

  it('leaves no empty hash behind when an increment fails on a new key', async () => {
    expect(await run('HINCRBYFLOAT', 'fresh', 'f', 'inf')).toEqual({ error: 'ERR value is NaN or Infinity' });
    expect(await run('EXISTS', 'fresh')).toBe(0);
  });

  it('scans a small hash in one call and a large one by cursor', async () => {
    await run('HSET', 'small', 'name', 'x', 'nick', 'y', 'age', '3');
    expect(await run('HSCAN', 'small', '0', 'COUNT', '1')).toEqual(['0', ['name', 'x', 'nick', 'y', 'age', '3']]);
    expect(await run('HSCAN', 'small', '0', 'MATCH', 'n*')).toEqual(['0', ['name', 'x', 'nick', 'y']]);
    expect(await run('HSCAN', 'missing', '0')).toEqual(['0', []]);
    expect(await run('HSCAN', 'small', '0', 'TYPE', 'string')).toEqual({ error: 'ERR syntax error' });
    const fields = Array.from({ length: 300 }, (_, index) => [`f${index}`, 'v']).flat();
    await run('HSET', 'large', ...fields);
    const seen = new Set<string>();
    let cursor = '0';
    do {
      const [next, pairs] = (await run('HSCAN', 'large', cursor, 'COUNT', '50')) as [string, string[]];
      for (let index = 0; index < pairs.length; index += 2) seen.add(pairs[index]);
      cursor = next;
    } while (cursor !== '0');
    expect(seen.size).toBe(300);
  });

  it('picks random fields: distinct for a positive count, repeated for a negative one', async () => {
    expect(await run('HRANDFIELD', 'missing')).toBeNull();
    expect(await run('HRANDFIELD', 'missing', '3')).toEqual([]);
    await run('HSET', 'h', 'a', '1', 'b', '2', 'c', '3');
    expect(['a', 'b', 'c']).toContain(await run('HRANDFIELD', 'h'));
    expect(((await run('HRANDFIELD', 'h', '10')) as string[]).sort()).toEqual(['a', 'b', 'c']);
    expect(await run('HRANDFIELD', 'h', '-7')).toHaveLength(7);
    const [field, value] = (await run('HRANDFIELD', 'h', '1', 'WITHVALUES')) as string[];
    expect(await run('HGET', 'h', field)).toBe(value);
    expect(await run('HRANDFIELD', 'h', '0')).toEqual([]);
    expect(await run('HRANDFIELD', 'h', '1', 'bogus')).toEqual({ error: 'ERR syntax error' });
  });

  it('answers WRONGTYPE on a string key', async () => {
    await run('SET', 's', 'v');
    expect(await run('HGET', 's', 'a')).toEqual({ error: 'WRONGTYPE Operation against a key holding the wrong kind of value' });
    expect(await run('HSET', 's', 'a', '1')).toEqual({ error: 'WRONGTYPE Operation against a key holding the wrong kind of value' });
  });
});
