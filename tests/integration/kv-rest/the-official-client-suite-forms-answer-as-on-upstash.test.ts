// Issue 29: forms the official @upstash/redis test suite sends that the memory engine answered
// otherwise, each called here through the real client: Redis 8.2's BITOP operations, SCAN's
// Upstash-only WITHTYPE, and Upstash's answers to FCALL_RO, a far HEXPIREAT, `$..` paths and
// COPY onto itself. The forms where Upstash and Redis 7.0 answer differently and the memory engine
// keeps Redis's answer are listed in docs/known-differences.md instead.
import { Redis } from '@upstash/redis';
import type { KvRestServer } from '../../../mock';
import { startServer } from '../../support/kv-servers';

describe("the official client suite's forms answer on the memory engine as on Upstash", () => {
  let server: KvRestServer;
  let redis: Redis;
  beforeAll(async () => {
    server = await startServer('memory');
    redis = new Redis({ url: server.url, token: server.token, retry: false });
  });
  afterAll(() => server.close());
  beforeEach(() => redis.flushall());

  describe('item 1: BITOP DIFF, DIFF1, ANDOR and ONE (Redis 8.2) answered ERR syntax error', () => {
    it('stores the bits of X in none of the Ys (DIFF), in a Y but not X (DIFF1), in X and a Y (ANDOR), in exactly one source (ONE)', async () => {
      // 'A' 0x41, 'B' 0x42, 'C' 0x43, 'D' 0x44; a missing byte counts as 0x00.
      await redis.mset({ x: 'ABC', y1: 'A', y2: 'B', short: 'A', ab: 'AB', ac: 'AC', d: 'D' });
      expect(await redis.bitop('diff', 'r1', 'x', 'y1', 'y2')).toBe(3);
      expect(await redis.bitop('diff1', 'r2', 'short', 'ab', 'ac')).toBe(2);
      expect(await redis.bitop('andor', 'r3', 'x', 'ab', 'ac')).toBe(3);
      expect(await redis.bitop('one', 'r4', 'y1', 'y2', 'd')).toBe(1);
      expect(await redis.mget('r1', 'r2', 'r3', 'r4')).toEqual(['\x00BC', '\x00C', 'AB\x00', '\x07']);
    });

    it('refuses DIFF, DIFF1 and ANDOR with one source key in the words of Redis 8.2, and deletes the destination when every source is empty', async () => {
      for (const operation of ['diff', 'diff1', 'andor'] as const) {
        await expect(redis.bitop(operation, 'r', 'x')).rejects.toThrow(`ERR BITOP ${operation.toUpperCase()} must be called with at least two source keys.`);
      }
      await redis.set('r', 'old');
      expect(await redis.bitop('one', 'r', 'missing1', 'missing2')).toBe(0);
      expect(await redis.exists('r')).toBe(0);
    });
  });

  describe("item 2: SCAN's Upstash-only WITHTYPE answered ERR syntax error", () => {
    it('lists each key with its type, combined with MATCH, COUNT and TYPE', async () => {
      await redis.set('s1', 'v');
      await redis.zadd('z1', { score: 1, member: 'm' });
      await redis.json.set('j1', '$', { a: 1 });
      const listed = async (options: Parameters<Redis['scan']>[1]) => {
        const found: unknown[] = [];
        let cursor = '0';
        do {
          const [next, items] = await redis.scan(cursor, options);
          found.push(...items);
          cursor = next;
        } while (cursor !== '0');
        return found;
      };
      expect(await listed({ withType: true, count: 1 })).toEqual([
        { key: 's1', type: 'string' },
        { key: 'z1', type: 'zset' },
        { key: 'j1', type: 'ReJSON-RL' },
      ]);
      expect(await listed({ withType: true, match: '*1', count: 100 })).toHaveLength(3);
      expect(await redis.scan(0, { type: 'zset' })).toEqual(['0', ['z1']]);
      expect(await redis.exec(['SCAN', '0', 'TYPE', 'string', 'WITHTYPE'])).toEqual([0, ['s1', 'string']]);
      await expect(redis.exec(['SSCAN', 's1', '0', 'WITHTYPE'])).rejects.toThrow('ERR syntax error');
    });
  });

  describe('item 3: FCALL_RO of a function not declared no-writes was refused in Redis 7.0\'s words, where Upstash runs it read-only', () => {
    const LIBRARY = [
      '#!lua name=plain',
      "redis.register_function('plain_get', function(keys) return redis.call('GET', keys[1]) end)",
      "redis.register_function('plain_set', function(keys, args) return redis.call('SET', keys[1], args[1]) end)",
    ].join('\n');

    it('runs a function that only reads, refuses the first write of one that writes and leaves the key as it was', async () => {
      await redis.functions.load({ code: LIBRARY, replace: true });
      await redis.set('k', 'before');
      expect(await redis.functions.callRo('plain_get', ['k'])).toBe('before');
      await expect(redis.functions.callRo('plain_set', ['k'], ['after'])).rejects.toThrow(
        'ERR Write commands are not allowed from read-only scripts. script: plain_set, on @user_function:3.',
      );
      expect(await redis.get('k')).toBe('before');
      expect(await redis.functions.call('plain_set', ['k'], ['after'])).toBe('OK');
    });

    it('still lets the Read Only token run through FCALL_RO only what it may run directly', async () => {
      await redis.functions.load({ code: LIBRARY, replace: true });
      await redis.set('k', 'before');
      const readOnly = new Redis({ url: server.url, token: server.readonlyToken, retry: false });
      expect(await readOnly.functions.callRo('plain_get', ['k'])).toBe('before');
      await expect(readOnly.functions.callRo('plain_set', ['k'], ['after'])).rejects.toThrow(
        "ERR The user executing the script can't run this command or subcommand script: plain_set, on @user_function:3.",
      );
      expect(await redis.get('k')).toBe('before');
    });
  });

  describe('item 4: HEXPIREAT past Redis 8.0\'s bound (2^46 ms) was refused, where Upstash stores it (the suite\'s "use all the things" pipeline)', () => {
    it('stores a deadline given as seconds that is really a time in milliseconds, and reports it back', async () => {
      await redis.hset('h', { field: 'v' });
      const seconds = 1_800_000_001_000; // Date.now() + 1000 read as seconds: 1.8e15 ms, about 57,000 years ahead
      expect(await redis.hexpireat('h', 'field', seconds)).toEqual([1]);
      expect(await redis.hexpiretime('h', 'field')).toEqual([seconds]);
      expect(await redis.hget('h', 'field')).toBe('v');
    });

    it('still refuses a deadline a JavaScript number cannot hold exactly, in Redis\'s words', async () => {
      await redis.hset('h', { field: 'v' });
      await expect(redis.hpexpireat('h', 'field', 2 ** 53)).rejects.toThrow("ERR invalid expire time in 'hpexpireat' command");
      await expect(redis.hexpireat('h', 'field', Math.ceil(2 ** 53 / 1000))).rejects.toThrow("ERR invalid expire time in 'hexpireat' command");
    });
  });

  describe('item 5: `$..name` listed a node\'s own match before its descendants\' (RedisJSON\'s order), where Upstash lists the descendants\' first', () => {
    it('answers JSON.GET, JSON.MGET and JSON.OBJLEN with the deeper matches first', async () => {
      await redis.json.set('doc', '$', { a: 2, b: 3, nested: { a: 4, b: null } });
      await redis.json.set('doc2', '$', { a: 1, nested: { a: { x: 1, y: 2 } }, list: [{ a: 5 }, { a: 6 }] });
      expect(await redis.json.get('doc', '$..b')).toEqual([null, 3]);
      expect(await redis.json.get('doc', '$..a', '$..b')).toEqual({ '$..a': [4, 2], '$..b': [null, 3] });
      expect(await redis.json.mget(['doc', 'doc2'], '$..a')).toEqual([[4, 2], [{ x: 1, y: 2 }, 5, 6, 1]]);
      expect(await redis.json.objlen('doc2', '$..a')).toEqual([2, null, null, null]);
    });
  });

  describe('item 6: COPY of a key onto itself answered ERR source and destination objects are the same, where Upstash answers 0', () => {
    it('copies nothing and leaves the key as it was, REPLACE or not', async () => {
      await redis.set('k', 'v', { ex: 100 });
      expect(await redis.copy('k', 'k')).toBe('NOT_COPIED');
      expect(await redis.copy('k', 'k', { replace: true })).toBe('NOT_COPIED');
      expect(await redis.exec(['COPY', 'missing', 'missing'])).toBe(0);
      expect(await redis.get('k')).toBe('v');
      expect(await redis.ttl('k')).toBeGreaterThan(90);
    });
  });
});
