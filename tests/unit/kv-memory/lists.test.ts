// List commands of the memory engine (non-blocking), with Redis 7.0.15's replies and error texts.
import { useEngine } from './memory-engine-harness';

describe('memory engine: lists', () => {
  const subject = useEngine();
  const run = (...args: (string | number)[]) => subject().run(...args);

  it('pushes at both ends and reads ranges', async () => {
    expect(await run('RPUSH', 'l', 'a', 'b', 'c')).toBe(3);
    expect(await run('LPUSH', 'l', 'z', 'y')).toBe(5);
    expect(await run('LRANGE', 'l', '0', '-1')).toEqual(['y', 'z', 'a', 'b', 'c']);
    expect(await run('LRANGE', 'l', '-2', '-1')).toEqual(['b', 'c']);
    expect(await run('LRANGE', 'l', '3', '1')).toEqual([]);
    expect(await run('LRANGE', 'l', '-100', '100')).toHaveLength(5);
    expect(await run('LRANGE', 'missing', '0', '-1')).toEqual([]);
    expect([await run('LINDEX', 'l', '0'), await run('LINDEX', 'l', '-1'), await run('LINDEX', 'l', '9')]).toEqual(['y', 'c', null]);
    expect([await run('LLEN', 'l'), await run('LLEN', 'missing')]).toEqual([5, 0]);
  });

  it('pushes to existing lists only with LPUSHX and RPUSHX', async () => {
    expect(await run('LPUSHX', 'l', 'a')).toBe(0);
    expect(await run('EXISTS', 'l')).toBe(0);
    await run('RPUSH', 'l', 'a');
    expect(await run('RPUSHX', 'l', 'b', 'c')).toBe(3);
  });

  it('pops one or several, nil for a missing key, and removes the emptied list', async () => {
    await run('RPUSH', 'l', 'a', 'b', 'c', 'd');
    expect(await run('LPOP', 'l')).toBe('a');
    expect(await run('RPOP', 'l', '2')).toEqual(['d', 'c']);
    expect(await run('LPOP', 'l', '0')).toEqual([]);
    expect(await run('LPOP', 'l', '5')).toEqual(['b']);
    expect(await run('EXISTS', 'l')).toBe(0);
    expect(await run('LPOP', 'l')).toBeNull();
    expect(await subject().reply('LPOP', 'l', '2')).toEqual({ kind: 'nullArray' });
    expect(await run('LPOP', 'l', '-1')).toEqual({ error: 'ERR value is out of range, must be positive' });
    expect(await run('LPOP', 'l', '1', '2')).toEqual({ error: "ERR wrong number of arguments for 'lpop' command" });
  });

  it('sets, removes, trims and inserts', async () => {
    await run('RPUSH', 'l', 'a', 'b', 'a', 'c', 'a');
    expect(await run('LSET', 'l', '-1', 'z')).toBe('OK');
    expect(await run('LSET', 'l', '10', 'z')).toEqual({ error: 'ERR index out of range' });
    expect(await run('LSET', 'missing', '0', 'z')).toEqual({ error: 'ERR no such key' });
    expect(await run('LREM', 'l', '-1', 'a')).toBe(1);
    expect(await run('LRANGE', 'l', '0', '-1')).toEqual(['a', 'b', 'c', 'z']);
    expect(await run('LINSERT', 'l', 'BEFORE', 'c', 'X')).toBe(5);
    expect(await run('LINSERT', 'l', 'after', 'c', 'Y')).toBe(6);
    expect(await run('LINSERT', 'l', 'BEFORE', 'nothing', 'Y')).toBe(-1);
    expect(await run('LINSERT', 'missing', 'BEFORE', 'c', 'Y')).toBe(0);
    expect(await run('LINSERT', 'l', 'middle', 'c', 'Y')).toEqual({ error: 'ERR syntax error' });
    expect(await run('LTRIM', 'l', '1', '-2')).toBe('OK');
    expect(await run('LRANGE', 'l', '0', '-1')).toEqual(['b', 'X', 'c', 'Y']);
    expect(await run('LREM', 'l', '0', 'b')).toBe(1);
    expect(await run('LTRIM', 'l', '5', '10')).toBe('OK');
    expect(await run('EXISTS', 'l')).toBe(0);
  });

  it('finds positions with LPOS, RANK, COUNT and MAXLEN', async () => {
    await run('RPUSH', 'p', 'a', 'b', 'c', 'a', 'b', 'c', 'a');
    expect(await run('LPOS', 'p', 'a')).toBe(0);
    expect(await run('LPOS', 'p', 'a', 'RANK', '2')).toBe(3);
    expect(await run('LPOS', 'p', 'a', 'RANK', '-1')).toBe(6);
    expect(await run('LPOS', 'p', 'a', 'COUNT', '0')).toEqual([0, 3, 6]);
    expect(await run('LPOS', 'p', 'a', 'COUNT', '0', 'RANK', '-1')).toEqual([6, 3, 0]);
    expect(await run('LPOS', 'p', 'a', 'MAXLEN', '3', 'COUNT', '0')).toEqual([0]);
    expect(await run('LPOS', 'p', 'z')).toBeNull();
    expect(await run('LPOS', 'missing', 'a', 'COUNT', '1')).toEqual([]);
    expect(await run('LPOS', 'p', 'a', 'RANK', '0')).toEqual({
      error: "ERR RANK can't be zero: use 1 to start from the first match, 2 from the second ... or use negative to start from the end of the list",
    });
    expect(await run('LPOS', 'p', 'a', 'COUNT', '-1')).toEqual({ error: "ERR COUNT can't be negative" });
    expect(await run('LPOS', 'p', 'a', 'MAXLEN', '-1')).toEqual({ error: "ERR MAXLEN can't be negative" });
  });

  it('moves elements between lists, and within one list', async () => {
    await run('RPUSH', 'src', 'a', 'b', 'c');
    expect(await run('RPOPLPUSH', 'src', 'dst')).toBe('c');
    expect(await run('LMOVE', 'src', 'dst', 'LEFT', 'RIGHT')).toBe('a');
    expect(await run('LRANGE', 'dst', '0', '-1')).toEqual(['c', 'a']);
    expect(await run('LMOVE', 'dst', 'dst', 'LEFT', 'RIGHT')).toBe('c');
    expect(await run('LRANGE', 'dst', '0', '-1')).toEqual(['a', 'c']);
    expect(await run('LMOVE', 'src', 'dst', 'up', 'left')).toEqual({ error: 'ERR syntax error' });
    expect(await run('RPOPLPUSH', 'missing', 'dst')).toBeNull();
    await run('SET', 's', 'x');
    expect(await run('RPOPLPUSH', 'src', 's')).toEqual({ error: 'WRONGTYPE Operation against a key holding the wrong kind of value' });
    expect(await run('LLEN', 'src')).toBe(1);
  });
});
