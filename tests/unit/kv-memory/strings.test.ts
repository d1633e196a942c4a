// String commands of the memory engine, checked against Redis 7.0.15's replies and error texts.
import { useEngine } from './memory-engine-harness';

describe('memory engine: strings', () => {
  const subject = useEngine();
  const run = (...args: (string | number)[]) => subject().run(...args);

  it('sets and gets, and answers nil for a missing key', async () => {
    expect(await run('SET', 'k', 'v')).toBe('OK');
    expect(await run('get', 'k')).toBe('v');
    expect(await run('GET', 'missing')).toBeNull();
  });

  it('keeps SET OK a simple string and GET a bulk string', async () => {
    expect(await subject().reply('SET', 'k', 'OK')).toEqual({ kind: 'simple', value: 'OK' });
    expect(await subject().reply('GET', 'k')).toEqual({ kind: 'bulk', value: 'OK' });
  });

  it('honours NX, XX and GET', async () => {
    expect(await run('SET', 'k', '1', 'XX')).toBeNull();
    expect(await run('SET', 'k', '1', 'NX')).toBe('OK');
    expect(await run('SET', 'k', '2', 'NX')).toBeNull();
    expect(await run('SET', 'k', '3', 'XX', 'GET')).toBe('1');
    expect(await run('SET', 'k', '4', 'NX', 'GET')).toBe('3');
    expect(await run('GET', 'k')).toBe('3');
    expect(await run('SET', 'new', 'x', 'GET')).toBeNull();
  });

  it('refuses conflicting or incomplete SET options with a syntax error', async () => {
    for (const options of [['NX', 'XX'], ['EX', '10', 'PX', '100'], ['KEEPTTL', 'EX', '10'], ['EX'], ['PERSIST'], ['BOGUS']]) {
      expect(await run('SET', 'k', 'v', ...options)).toEqual({ error: 'ERR syntax error' });
    }
  });

  it('refuses bad expire times like Redis', async () => {
    expect(await run('SET', 'k', 'v', 'EX', '0')).toEqual({ error: "ERR invalid expire time in 'set' command" });
    expect(await run('SET', 'k', 'v', 'PX', '-5')).toEqual({ error: "ERR invalid expire time in 'set' command" });
    expect(await run('SET', 'k', 'v', 'EX', 'ten')).toEqual({ error: 'ERR value is not an integer or out of range' });
    expect(await run('SET', 'k', 'v', 'EX', '9223372036854775')).toEqual({ error: "ERR invalid expire time in 'set' command" });
    expect(await run('SETEX', 'k', '0', 'v')).toEqual({ error: "ERR invalid expire time in 'setex' command" });
    expect(await run('PSETEX', 'k', '-1', 'v')).toEqual({ error: "ERR invalid expire time in 'psetex' command" });
  });

  it('sets expiries with EX, PX, EXAT, PXAT and keeps them with KEEPTTL', async () => {
    await run('SET', 'k', 'v', 'EX', '100');
    expect(await run('TTL', 'k')).toBe(100);
    await run('SET', 'k', 'v', 'PX', '1500');
    expect(await run('PTTL', 'k')).toBeGreaterThan(1400);
    await run('SET', 'k', 'v2', 'KEEPTTL');
    expect(await run('PTTL', 'k')).toBeGreaterThan(1400);
    await run('SET', 'k', 'v3');
    expect(await run('TTL', 'k')).toBe(-1);
    const inOneHour = Math.floor(Date.now() / 1000) + 3600;
    await run('SET', 'k', 'v', 'EXAT', inOneHour);
    expect(await run('EXPIRETIME', 'k')).toBe(inOneHour);
    await run('SET', 'k', 'v', 'PXAT', Date.now() - 1);
    expect(await run('EXISTS', 'k')).toBe(0);
  });

  it('answers WRONGTYPE for string commands on other types', async () => {
    await run('RPUSH', 'list', 'a');
    const wrongType = { error: 'WRONGTYPE Operation against a key holding the wrong kind of value' };
    for (const command of [['GET', 'list'], ['SET', 'list', 'v', 'GET'], ['APPEND', 'list', 'x'], ['INCR', 'list'], ['GETRANGE', 'list', '0', '1'], ['GETDEL', 'list'], ['GETSET', 'list', 'x'], ['STRLEN', 'list']]) {
      expect(await run(...command)).toEqual(wrongType);
    }
    expect(await run('SET', 'list', 'plain')).toBe('OK');
  });

  it('runs SETNX, GETSET, GETDEL and GETEX', async () => {
    expect(await run('SETNX', 'k', '1')).toBe(1);
    expect(await run('SETNX', 'k', '2')).toBe(0);
    expect(await run('GETSET', 'k', '3')).toBe('1');
    expect(await run('GETEX', 'k', 'EX', '50')).toBe('3');
    expect(await run('TTL', 'k')).toBe(50);
    expect(await run('GETEX', 'k', 'PERSIST')).toBe('3');
    expect(await run('TTL', 'k')).toBe(-1);
    expect(await run('GETEX', 'k', 'KEEPTTL')).toEqual({ error: 'ERR syntax error' });
    expect(await run('GETDEL', 'k')).toBe('3');
    expect(await run('GETDEL', 'k')).toBeNull();
    expect(await run('GETEX', 'k')).toBeNull();
  });

  it('runs MGET, MSET and MSETNX', async () => {
    expect(await run('MSET', 'a', '1', 'b', '2')).toBe('OK');
    await run('RPUSH', 'list', 'x');
    expect(await run('MGET', 'a', 'missing', 'list', 'b')).toEqual(['1', null, null, '2']);
    expect(await run('MSETNX', 'c', '3', 'a', '9')).toBe(0);
    expect(await run('GET', 'c')).toBeNull();
    expect(await run('MSETNX', 'c', '3', 'd', '4')).toBe(1);
    expect(await run('MSET', 'a', '1', 'b')).toEqual({ error: "ERR wrong number of arguments for 'mset' command" });
  });

  it('appends, measures and slices like Redis', async () => {
    expect(await run('APPEND', 'k', 'Hello')).toBe(5);
    expect(await run('APPEND', 'k', ' World')).toBe(11);
    expect(await run('STRLEN', 'k')).toBe(11);
    expect(await run('STRLEN', 'missing')).toBe(0);
    expect(await run('GETRANGE', 'k', '0', '4')).toBe('Hello');
    expect(await run('GETRANGE', 'k', '-5', '-1')).toBe('World');
    expect(await run('GETRANGE', 'k', '-1', '-5')).toBe('');
    expect(await run('GETRANGE', 'k', '5', '100')).toBe(' World');
    expect(await run('GETRANGE', 'k', '-100', '2')).toBe('Hel');
    expect(await run('SUBSTR', 'k', '0', '0')).toBe('H');
    expect(await run('GETRANGE', 'missing', '0', '-1')).toBe('');
  });

  it('overwrites and pads with SETRANGE', async () => {
    await run('SET', 'k', 'Hello World');
    expect(await run('SETRANGE', 'k', '6', 'Redis')).toBe(11);
    expect(await run('GET', 'k')).toBe('Hello Redis');
    expect(await run('SETRANGE', 'pad', '3', 'x')).toBe(4);
    expect(await run('GET', 'pad')).toBe('\0\0\0x');
    expect(await run('SETRANGE', 'empty', '5', '')).toBe(0);
    expect(await run('EXISTS', 'empty')).toBe(0);
    expect(await run('SETRANGE', 'k', '-1', 'x')).toEqual({ error: 'ERR offset is out of range' });
  });

  it('stores binary values byte for byte', async () => {
    const bytes = '\x00\xff\r\n\x80';
    await run('SET', bytes, bytes);
    expect(await run('GET', bytes)).toBe(bytes);
    expect(await run('STRLEN', bytes)).toBe(5);
  });
});
