// Generic key commands and expiry: DEL/EXISTS/TYPE/RENAME/COPY, EXPIRE with NX/XX/GT/LT, TTL
// rounding, millisecond precision, and lazy and active removal of expired keys.
import { CLIENT, engineUnderTest, useEngine } from './memory-engine-harness';
import { executeAsSent } from '../../support/engine-commands';

describe('memory engine: keys', () => {
  const subject = useEngine();
  const run = (...args: (string | number)[]) => subject().run(...args);

  it('counts deleted and existing keys, duplicates included', async () => {
    await run('MSET', 'a', '1', 'b', '2');
    expect(await run('EXISTS', 'a', 'a', 'missing')).toBe(2);
    expect(await run('TOUCH', 'a', 'missing')).toBe(1);
    expect(await run('DEL', 'a', 'a', 'missing')).toBe(1);
    expect(await run('UNLINK', 'b')).toBe(1);
    expect(await run('DBSIZE')).toBe(0);
  });

  it('names each type, and none for a missing key', async () => {
    await run('SET', 's', 'v');
    await run('RPUSH', 'l', 'v');
    await run('HSET', 'h', 'f', 'v');
    expect(await subject().reply('TYPE', 's')).toEqual({ kind: 'simple', value: 'string' });
    expect([await run('TYPE', 'l'), await run('TYPE', 'h'), await run('TYPE', 'x')]).toEqual(['list', 'hash', 'none']);
  });

  it('renames with the expiry, and refuses a missing source', async () => {
    await run('SET', 'a', '1', 'EX', '100');
    expect(await run('RENAME', 'a', 'b')).toBe('OK');
    expect([await run('GET', 'a'), await run('GET', 'b'), await run('TTL', 'b')]).toEqual([null, '1', 100]);
    expect(await run('RENAME', 'a', 'c')).toEqual({ error: 'ERR no such key' });
    await run('SET', 'c', '3');
    expect(await run('RENAMENX', 'b', 'c')).toBe(0);
    expect(await run('RENAMENX', 'b', 'b')).toBe(0);
    expect(await run('RENAME', 'b', 'b')).toBe('OK');
    expect(await run('RENAME', 'b', 'c')).toBe('OK');
    expect(await run('GET', 'c')).toBe('1');
  });

  it('copies a value deeply, with REPLACE and its errors', async () => {
    await run('HSET', 'h', 'f', 'v');
    await run('PEXPIRE', 'h', '50000');
    expect(await run('COPY', 'h', 'h2')).toBe(1);
    await run('HSET', 'h2', 'g', 'w');
    expect(await run('HLEN', 'h')).toBe(1);
    expect(await run('PTTL', 'h2')).toBeGreaterThan(49000);
    expect(await run('COPY', 'h', 'h2')).toBe(0);
    expect(await run('COPY', 'h', 'h2', 'REPLACE')).toBe(1);
    expect(await run('HLEN', 'h2')).toBe(1);
    expect(await run('COPY', 'h', 'h')).toBe(0); // hosted Upstash's answer; Redis: ERR source and destination objects are the same
    expect(await run('COPY', 'h', 'x', 'BOGUS')).toEqual({ error: 'ERR syntax error' });
    expect(await run('COPY', 'missing', 'x')).toBe(0);
  });

  it('lists keys by glob with KEYS', async () => {
    await run('MSET', 'user:1', 'a', 'user:2', 'b', 'other', 'c');
    expect(((await run('KEYS', 'user:*')) as string[]).sort()).toEqual(['user:1', 'user:2']);
    expect(await run('KEYS', 'user:[2]')).toEqual(['user:2']);
  });

  it('SCANs every key exactly once across cursors, with MATCH and TYPE', async () => {
    for (let index = 0; index < 25; index++) await run('SET', `k${index}`, 'v');
    await run('RPUSH', 'list', 'x');
    const seen: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = (await run('SCAN', cursor, 'COUNT', '7')) as [string, string[]];
      seen.push(...keys);
      cursor = next;
      // Deleting a key already returned must not make the iteration skip others.
      if (keys.length > 0) await run('DEL', keys[0]);
    } while (cursor !== '0');
    expect(seen.sort()).toEqual([...Array.from({ length: 25 }, (_, index) => `k${index}`), 'list'].sort());
    expect(await run('SCAN', '0', 'TYPE', 'list', 'COUNT', '100')).toEqual(['0', ['list']]);
    await run('MSET', 'user:1', 'a', 'user:2', 'b', 'other', 'c');
    const [cursor2, matched] = (await run('SCAN', '0', 'MATCH', 'user:*', 'COUNT', '100')) as [string, string[]];
    expect([cursor2, matched.sort()]).toEqual(['0', ['user:1', 'user:2']]);
  });

  it('refuses bad SCAN arguments like Redis', async () => {
    expect(await run('SCAN', 'abc')).toEqual({ error: 'ERR invalid cursor' });
    expect(await run('SCAN', '0', 'COUNT', '0')).toEqual({ error: 'ERR syntax error' });
    expect(await run('SCAN', '0', 'MATCH')).toEqual({ error: 'ERR syntax error' });
    expect(await run('SCAN', '0', 'COUNT', 'x')).toEqual({ error: 'ERR value is not an integer or out of range' });
  });

  it('answers RANDOMKEY with an existing key, or nil', async () => {
    expect(await run('RANDOMKEY')).toBeNull();
    await run('MSET', 'a', '1', 'b', '2');
    expect(['a', 'b']).toContain(await run('RANDOMKEY'));
  });
});

describe('memory engine: expiry', () => {
  const subject = useEngine();
  const run = (...args: (string | number)[]) => subject().run(...args);

  it('answers -2 and -1 for missing and persistent keys, and rounds TTL to the nearest second', async () => {
    expect([await run('TTL', 'x'), await run('PTTL', 'x'), await run('EXPIRETIME', 'x')]).toEqual([-2, -2, -2]);
    await run('SET', 'k', 'v');
    expect([await run('TTL', 'k'), await run('PTTL', 'k'), await run('PEXPIRETIME', 'k')]).toEqual([-1, -1, -1]);
    await run('PEXPIRE', 'k', '2600');
    expect(await run('TTL', 'k')).toBe(3);
    await run('PEXPIREAT', 'k', '4102444800499');
    expect([await run('EXPIRETIME', 'k'), await run('PEXPIRETIME', 'k')]).toEqual([4102444800, 4102444800499]);
    await run('PEXPIREAT', 'k', '4102444800500');
    expect(await run('EXPIRETIME', 'k')).toBe(4102444801);
  });

  it('applies NX, XX, GT and LT like Redis 7.0 (no expiry counts as infinite)', async () => {
    await run('SET', 'k', 'v');
    expect(await run('EXPIRE', 'k', '10', 'XX')).toBe(0);
    expect(await run('EXPIRE', 'k', '10', 'GT')).toBe(0);
    expect(await run('EXPIRE', 'k', '10', 'LT')).toBe(1);
    expect(await run('EXPIRE', 'k', '20', 'NX')).toBe(0);
    expect(await run('EXPIRE', 'k', '5', 'GT')).toBe(0);
    expect(await run('EXPIRE', 'k', '50', 'GT')).toBe(1);
    expect(await run('EXPIRE', 'k', '60', 'LT')).toBe(0);
    expect(await run('TTL', 'k')).toBe(50);
    expect(await run('PERSIST', 'k')).toBe(1);
    expect(await run('PERSIST', 'k')).toBe(0);
    expect(await run('EXPIRE', 'missing', '10')).toBe(0);
  });

  it('refuses bad EXPIRE arguments with Redis texts, options checked first', async () => {
    await run('SET', 'k', 'v');
    expect(await run('EXPIRE', 'k', 'abc', 'nx', 'gt')).toEqual({ error: 'ERR NX and XX, GT or LT options at the same time are not compatible' });
    expect(await run('EXPIRE', 'k', '10', 'gt', 'lt')).toEqual({ error: 'ERR GT and LT options at the same time are not compatible' });
    expect(await run('EXPIRE', 'k', '10', 'foo')).toEqual({ error: 'ERR Unsupported option foo' });
    expect(await run('EXPIRE', 'k', 'abc')).toEqual({ error: 'ERR value is not an integer or out of range' });
    expect(await run('EXPIRE', 'k', '9223372036854775807')).toEqual({ error: "ERR invalid expire time in 'expire' command" });
    expect(await run('PEXPIRE', 'k', '9223372036854775807')).toEqual({ error: "ERR invalid expire time in 'pexpire' command" });
  });

  it('deletes a key given a deadline in the past', async () => {
    await run('SET', 'k', 'v');
    expect(await run('EXPIRE', 'k', '-1')).toBe(1);
    expect(await run('EXISTS', 'k')).toBe(0);
    await run('SET', 'k', 'v');
    expect(await run('PEXPIREAT', 'k', '1')).toBe(1);
    expect(await run('DBSIZE')).toBe(0);
  });

  it('expires lazily with millisecond precision', async () => {
    await run('SET', 'k', 'v', 'PX', '30');
    expect(await run('GET', 'k')).toBe('v');
    await new Promise((resolve) => setTimeout(resolve, 45));
    expect(await run('GET', 'k')).toBeNull();
    expect(await run('TTL', 'k')).toBe(-2);
  });

  it('removes expired keys in the background without anyone reading them', async () => {
    const active = engineUnderTest({ activeExpiryIntervalMs: 5 });
    try {
      const commands = Array.from({ length: 2000 }, (_, index) => ['SET', `k${index}`, 'v', 'PX', '10']);
      await executeAsSent(active.engine, [...commands, ['SET', 'kept', 'v']], { transaction: false, caller: CLIENT });
      expect(await active.run('DBSIZE')).toBe(2001);
      // DBSIZE counts keys not yet removed (as in Redis), so it drops only through active expiry.
      const deadline = Date.now() + 5000;
      while ((await active.run('DBSIZE')) !== 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      const info = (await active.run('INFO', 'stats', 'keyspace')) as string;
      expect(info).toMatch(/expired_keys:2000\r\n/);
      expect(info).toMatch(/db0:keys=1,expires=0,/);
    } finally {
      await active.engine.close();
    }
  });
});
