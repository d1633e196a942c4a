// Hash-field expiry on the memory engine, as Redis 8.0 answers it: per-field reply codes of
// HEXPIRE and its conditions, TTL reads, HPERSIST, HGETEX, HSETEX, HGETDEL, the errors in Redis's
// words, and expired fields invisible to every hash read. Time is a fake clock (Date.now only).
import { CLIENT, engineUnderTest, useEngine } from './memory-engine-harness';
import { executeAsSent } from '../../support/engine-commands';

const START = 1_700_000_000_000;

describe('memory engine: hash-field expiry', () => {
  const subject = useEngine();
  const run = (...args: (string | number)[]) => subject().run(...args);
  let clock = START;
  const advance = (ms: number) => {
    clock += ms;
  };

  beforeEach(() => {
    clock = START;
    jest.spyOn(Date, 'now').mockImplementation(() => clock);
  });
  afterEach(() => jest.restoreAllMocks());

  it('sets field TTLs with HEXPIRE and answers -2 for a missing field and key', async () => {
    await run('HSET', 'h', 'a', '1', 'b', '2', 'c', '3');
    expect(await run('HEXPIRE', 'h', 10, 'FIELDS', 2, 'a', 'x')).toEqual([1, -2]);
    expect(await run('HPEXPIRE', 'h', 1500, 'FIELDS', 1, 'b')).toEqual([1]);
    expect(await run('HTTL', 'h', 'FIELDS', 4, 'a', 'b', 'c', 'x')).toEqual([10, 2, -1, -2]);
    expect(await run('HPTTL', 'h', 'FIELDS', 2, 'a', 'b')).toEqual([10_000, 1500]);
    expect(await run('HEXPIRETIME', 'h', 'FIELDS', 2, 'a', 'b')).toEqual([START / 1000 + 10, START / 1000 + 2]);
    expect(await run('HPEXPIRETIME', 'h', 'FIELDS', 1, 'b')).toEqual([START + 1500]);
    expect(await run('HEXPIRE', 'missing', 10, 'FIELDS', 1, 'a')).toEqual([-2]);
    expect(await run('HTTL', 'missing', 'FIELDS', 2, 'a', 'b')).toEqual([-2, -2]);
  });

  it('applies NX, XX, GT and LT per field, a field without a TTL counting as an infinite one', async () => {
    await run('HSET', 'h', 'ttl', '1', 'none', '2');
    await run('HEXPIRE', 'h', 100, 'FIELDS', 1, 'ttl');
    expect(await run('HEXPIRE', 'h', 50, 'NX', 'FIELDS', 2, 'ttl', 'none')).toEqual([0, 1]);
    await run('HPERSIST', 'h', 'FIELDS', 1, 'none');
    expect(await run('HEXPIRE', 'h', 50, 'XX', 'FIELDS', 2, 'ttl', 'none')).toEqual([1, 0]);
    expect(await run('HEXPIRE', 'h', 40, 'gt', 'FIELDS', 2, 'ttl', 'none')).toEqual([0, 0]);
    expect(await run('HEXPIRE', 'h', 60, 'GT', 'FIELDS', 1, 'ttl')).toEqual([1]);
    expect(await run('HEXPIRE', 'h', 60, 'LT', 'FIELDS', 2, 'ttl', 'none')).toEqual([0, 1]);
    expect(await run('HEXPIRE', 'h', 30, 'LT', 'FIELDS', 1, 'ttl')).toEqual([1]);
    expect(await run('HTTL', 'h', 'FIELDS', 2, 'ttl', 'none')).toEqual([30, 60]);
  });

  it('deletes a field whose new deadline has passed (code 2), and the key with its last field', async () => {
    await run('HSET', 'h', 'a', '1', 'b', '2');
    expect(await run('HEXPIRE', 'h', 0, 'FIELDS', 1, 'a')).toEqual([2]);
    expect(await run('HPEXPIREAT', 'h', START - 1, 'FIELDS', 2, 'b', 'b')).toEqual([2, -2]);
    expect(await run('EXISTS', 'h')).toBe(0);
  });

  it('hides expired fields from every hash read and drops the key when its last field expires', async () => {
    await run('HSET', 'h', 'gone', 'x', 'stays', 'yy');
    await run('HPEXPIRE', 'h', 100, 'FIELDS', 1, 'gone');
    advance(100);
    expect(await run('HGET', 'h', 'gone')).toBeNull();
    expect(await run('HMGET', 'h', 'gone', 'stays')).toEqual([null, 'yy']);
    expect(await run('HGETALL', 'h')).toEqual(['stays', 'yy']);
    expect(await run('HKEYS', 'h')).toEqual(['stays']);
    expect(await run('HLEN', 'h')).toBe(1);
    expect(await run('HEXISTS', 'h', 'gone')).toBe(0);
    expect(await run('HSTRLEN', 'h', 'gone')).toBe(0);
    expect(await run('HSCAN', 'h', 0)).toEqual(['0', ['stays', 'yy']]);
    expect(await run('HRANDFIELD', 'h', 5)).toEqual(['stays']);
    expect(await run('HTTL', 'h', 'FIELDS', 1, 'gone')).toEqual([-2]);
    await run('HPEXPIRE', 'h', 50, 'FIELDS', 1, 'stays');
    advance(50);
    expect([await run('EXISTS', 'h'), await run('TYPE', 'h'), await run('KEYS', '*')]).toEqual([0, 'none', []]);
  });

  it('hides expired fields from SORT BY and GET patterns', async () => {
    await run('RPUSH', 'ids', '1', '2');
    await run('HSET', 'w_1', 'weight', '20', 'name', 'one');
    await run('HSET', 'w_2', 'weight', '10', 'name', 'two');
    await run('HPEXPIRE', 'w_2', 10, 'FIELDS', 1, 'name');
    advance(10);
    expect(await run('SORT', 'ids', 'BY', 'w_*->weight', 'GET', 'w_*->name')).toEqual([null, 'one']);
  });

  it('drops a TTL on HSET and HMSET, keeps it on HINCRBY, HINCRBYFLOAT and a refused HSETNX, and forgets it with HDEL', async () => {
    await run('HSET', 'h', 'a', '1', 'b', '1', 'c', '1', 'd', '1', 'e', '1');
    await run('HEXPIRE', 'h', 100, 'FIELDS', 5, 'a', 'b', 'c', 'd', 'e');
    await run('HSET', 'h', 'a', '2');
    await run('HMSET', 'h', 'b', '2');
    await run('HINCRBY', 'h', 'c', 1);
    await run('HINCRBYFLOAT', 'h', 'd', '0.5');
    await run('HSETNX', 'h', 'e', '2');
    expect(await run('HTTL', 'h', 'FIELDS', 5, 'a', 'b', 'c', 'd', 'e')).toEqual([-1, -1, 100, 100, 100]);
    await run('HDEL', 'h', 'c');
    await run('HSET', 'h', 'c', 'back');
    expect(await run('HTTL', 'h', 'FIELDS', 1, 'c')).toEqual([-1]);
  });

  it('keeps field TTLs through RENAME and COPY, each copy expiring on its own', async () => {
    await run('HSET', 'h', 'a', '1', 'b', '2');
    await run('HPEXPIRE', 'h', 100, 'FIELDS', 1, 'a');
    expect(await run('RENAME', 'h', 'renamed')).toBe('OK');
    expect(await run('COPY', 'renamed', 'copied')).toBe(1);
    expect(await run('HPTTL', 'copied', 'FIELDS', 2, 'a', 'b')).toEqual([100, -1]);
    await run('HPERSIST', 'copied', 'FIELDS', 1, 'a');
    advance(100);
    expect([await run('HGETALL', 'renamed'), await run('HGETALL', 'copied')]).toEqual([['b', '2'], ['a', '1', 'b', '2']]);
  });

  it('removes TTLs with HPERSIST: 1 removed, -1 none, -2 no such field', async () => {
    await run('HSET', 'h', 'a', '1', 'b', '2');
    await run('HEXPIRE', 'h', 10, 'FIELDS', 1, 'a');
    expect(await run('HPERSIST', 'h', 'FIELDS', 3, 'a', 'b', 'x')).toEqual([1, -1, -2]);
    expect(await run('HPERSIST', 'missing', 'FIELDS', 1, 'a')).toEqual([-2]);
    advance(20_000);
    expect(await run('HGET', 'h', 'a')).toBe('1');
  });

  it('reads and re-times fields with HGETEX (EX, PX, EXAT, PXAT, PERSIST), deleting those timed into the past', async () => {
    await run('HSET', 'h', 'a', '1', 'b', '2', 'c', '3');
    expect(await run('HGETEX', 'h', 'EX', 10, 'FIELDS', 2, 'a', 'x')).toEqual(['1', null]);
    expect(await run('HGETEX', 'h', 'PXAT', START + 500, 'FIELDS', 1, 'b')).toEqual(['2']);
    expect(await run('HPTTL', 'h', 'FIELDS', 2, 'a', 'b')).toEqual([10_000, 500]);
    expect(await run('HGETEX', 'h', 'PERSIST', 'FIELDS', 1, 'a')).toEqual(['1']);
    expect(await run('HGETEX', 'h', 'FIELDS', 1, 'b')).toEqual(['2']);
    expect(await run('HTTL', 'h', 'FIELDS', 2, 'a', 'b')).toEqual([-1, 1]);
    expect(await run('HGETEX', 'h', 'EXAT', START / 1000 - 1, 'FIELDS', 1, 'c')).toEqual(['3']);
    expect(await run('HEXISTS', 'h', 'c')).toBe(0);
    expect(await run('HGETEX', 'missing', 'PX', 10, 'FIELDS', 2, 'a', 'b')).toEqual([null, null]);
  });

  it('sets fields with HSETEX, all or none under FNX and FXX, with a TTL, KEEPTTL, or dropping the TTL', async () => {
    expect(await run('HSETEX', 'h', 'FXX', 'FIELDS', 1, 'a', '1')).toBe(0);
    expect(await run('EXISTS', 'h')).toBe(0);
    expect(await run('HSETEX', 'h', 'FNX', 'EX', 10, 'FIELDS', 2, 'a', '1', 'b', '2')).toBe(1);
    expect(await run('HSETEX', 'h', 'FNX', 'FIELDS', 2, 'b', '9', 'c', '3')).toBe(0);
    expect(await run('HSETEX', 'h', 'FXX', 'FIELDS', 2, 'a', '9', 'c', '3')).toBe(0);
    expect(await run('HSETEX', 'h', 'FXX', 'KEEPTTL', 'FIELDS', 1, 'a', 'A')).toBe(1);
    expect(await run('HSETEX', 'h', 'FIELDS', 1, 'b', 'B')).toBe(1);
    expect(await run('HSETEX', 'h', 'PX', 250, 'FIELDS', 1, 'c', 'C')).toBe(1);
    expect(await run('HPTTL', 'h', 'FIELDS', 3, 'a', 'b', 'c')).toEqual([10_000, -1, 250]);
    expect(await run('HGETALL', 'h')).toEqual(['a', 'A', 'b', 'B', 'c', 'C']);
    expect(await run('HSETEX', 'gone', 'PXAT', START, 'FIELDS', 1, 'a', '1')).toBe(1);
    expect(await run('EXISTS', 'gone')).toBe(0);
  });

  it('reads and deletes fields with HGETDEL, removing the emptied key', async () => {
    await run('HSET', 'h', 'a', '1', 'b', '2');
    expect(await run('HGETDEL', 'h', 'FIELDS', 3, 'a', 'x', 'a')).toEqual(['1', null, null]);
    expect(await run('HGETDEL', 'h', 'FIELDS', 1, 'b')).toEqual(['2']);
    expect(await run('EXISTS', 'h')).toBe(0);
    expect(await run('HGETDEL', 'h', 'FIELDS', 1, 'b')).toEqual([null]);
  });

  it('refuses bad arguments with the errors Redis 8.0 words, WRONGTYPE first except for HSETEX', async () => {
    await run('HSET', 'h', 'a', '1');
    await run('SET', 's', 'v');
    const expectError = async (args: (string | number)[], message: string) => expect([args.join(' '), await run(...args)]).toEqual([args.join(' '), { error: message }]);
    await expectError(['HEXPIRE', 's', 'abc', 'FIELDS', 1, 'a'], 'WRONGTYPE Operation against a key holding the wrong kind of value');
    await expectError(['HEXPIRE', 'h', 'abc', 'FIELDS', 1, 'a'], 'ERR value is not an integer or out of range');
    await expectError(['HEXPIRE', 'h', -1, 'FIELDS', 1, 'a'], 'ERR invalid expire time, must be >= 0');
    await expectError(['HEXPIRE', 'h', 2 ** 53, 'FIELDS', 1, 'a'], "ERR invalid expire time in 'hexpire' command");
    await expectError(['HPEXPIREAT', 'h', 2 ** 53, 'FIELDS', 1, 'a'], "ERR invalid expire time in 'hpexpireat' command");
    await expectError(['HEXPIRE', 'h', 10, 'NX', 'XX', 'FIELDS', 1, 'a'], 'ERR Mandatory argument FIELDS is missing or not at the right position');
    await expectError(['HEXPIRE', 'h', 10, 'FIELDS', 0, 'a'], 'ERR Parameter `numFields` should be greater than 0');
    await expectError(['HEXPIRE', 'h', 10, 'FIELDS', 2, 'a'], 'ERR The `numfields` parameter must match the number of arguments');
    await expectError(['HTTL', 'h', 'FIELDS', 'x', 'a'], 'ERR Number of fields must be a positive integer');
    await expectError(['HPERSIST', 'h', 'FELDS', 1, 'a'], 'ERR Mandatory argument FIELDS is missing or not at the right position');
    await expectError(['HGETDEL', 'h', 'FIELDS', 1, 'a', 'b'], 'ERR The `numfields` parameter must match the number of arguments');
    await expectError(['HGETEX', 'h', 'EX', 10, 'FIELDS'], 'ERR Number of fields must be a positive integer');
    await expectError(['HGETEX', 'h', 'KEEPTTL', 'FIELDS', 1, 'a'], 'ERR Mandatory argument FIELDS is missing or not at the right position');
    await expectError(['HSETEX', 's', 'FNX', 'FXX', 'FIELDS', 1, 'a', '1'], 'ERR Only one of FXX or FNX arguments can be specified');
    await expectError(['HSETEX', 'h', 'EX', 10, 'KEEPTTL', 'FIELDS', 1, 'a', '1'], 'ERR Only one of EX, PX, EXAT, PXAT or KEEPTTL arguments can be specified');
    await expectError(['HSETEX', 'h', 'FIELDS', 0, 'a', '1'], 'ERR invalid number of fields');
    await expectError(['HSETEX', 'h', 'FIELDS', 2, 'a', '1'], "ERR wrong number of arguments for 'hsetex' command");
    await expectError(['HSETEX', 'h', 'NOPE', 'FIELDS', 1, 'a', '1'], 'ERR unknown argument: NOPE');
    await expectError(['HSETEX', 'h', 'FNX', 'FXX', 'KEEPTTL', 'EX'], 'ERR Only one of FXX or FNX arguments can be specified');
    await expectError(['HSETEX', 'h', 'FNX', 'KEEPTTL', 'FIELDS', 'EX'], "ERR wrong number of arguments for 'hsetex' command");
    await expectError(['HSETEX', 's', 'FIELDS', 1, 'a', '1'], 'WRONGTYPE Operation against a key holding the wrong kind of value');
  });

  it('lets a +@hash user run HEXPIRE and HTTL, and a +@read user HTTL only', async () => {
    await run('HSET', 'h', 'a', '1');
    await run('ACL', 'SETUSER', 'hasher', 'on', 'nopass', '~*', '+@hash');
    await run('ACL', 'SETUSER', 'reader', 'on', 'nopass', '~*', '+@read');
    const as = (user: string) => async (...args: string[]) =>
      (await executeAsSent(subject().engine, [args], { transaction: false, caller: { user, address: '127.0.0.1:40000' } }))[0];
    expect(await as('hasher')('HEXPIRE', 'h', '10', 'FIELDS', '1', 'a')).toEqual({ kind: 'array', items: [{ kind: 'integer', value: 1 }] });
    expect(await as('reader')('HTTL', 'h', 'FIELDS', '1', 'a')).toEqual({ kind: 'array', items: [{ kind: 'integer', value: 10 }] });
    expect(await as('reader')('HEXPIRE', 'h', '10', 'FIELDS', '1', 'a')).toEqual({ kind: 'error', message: "NOPERM this user has no permissions to run the 'hexpire' command" });
  });

  it('removes a hash whose fields all expired in the background, without anyone reading it', async () => {
    const active = engineUnderTest({ activeExpiryIntervalMs: 5 });
    try {
      await active.run('HSET', 'unread', 'a', '1', 'b', '2');
      await active.run('HSET', 'kept', 'a', '1');
      await active.run('HPEXPIRE', 'unread', 10, 'FIELDS', 2, 'a', 'b');
      advance(10);
      // DBSIZE counts keys not yet removed, so it drops only through active expiry.
      let size = await active.run('DBSIZE');
      for (let polls = 0; size !== 1 && polls < 200; polls++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        size = await active.run('DBSIZE');
      }
      expect(size).toBe(1);
    } finally {
      await active.engine.close();
    }
  });

  it('answers reads of a hash with many expired fields within 2 s: each expired field is removed once (from a heap), not looked at on every read', async () => {
    const fields = Array.from({ length: 100_000 }, (_, index) => `f${index}`);
    // Built with concat: spreading 200,000 arguments into a call would overflow the stack.
    const setup = [['HSET', 'big'].concat(fields.flatMap((field) => [field, 'v'])), ['HPEXPIRE', 'big', '10', 'FIELDS', '50000'].concat(fields.slice(0, 50_000))];
    await executeAsSent(subject().engine, setup, { transaction: false, caller: CLIENT });
    advance(10);
    const started = performance.now();
    for (let read = 0; read < 1000; read++) await run('HGET', 'big', 'f99999');
    expect([await run('HLEN', 'big'), performance.now() - started < 2000]).toEqual([50_000, true]);
  });
});
