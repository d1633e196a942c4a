// Finding 16 (commands): RPUSH/LPUSH of ~130k values and BITOP over 200k keys failed on the memory
// engine with `Maximum call stack size exceeded` (arguments spread into a call), and the failed push
// left an empty list key behind. Commands with huge argument lists now succeed as on Redis, and no
// per-member splice makes a many-member command quadratic.
import fc from 'fast-check';
import { SortedSet } from '../../../mock/kv-rest/memory/sorted-set';
import { CLIENT, useEngine, type EngineUnderTest } from './memory-engine-harness';
import { plain, type Plain } from '../../fixtures/plain-replies';
import { executeAsSent } from '../../support/engine-commands';

const values = (count: number, prefix = 'v'): string[] => Array.from({ length: count }, (_, index) => `${prefix}${index}`);

describe('commands with huge argument lists run as on Redis', () => {
  const engine = useEngine();
  // Arguments as one array: spreading 200k of them into a call would overflow this test's own stack.
  const current = (): { run: (...args: (string | number | (string | number)[])[]) => Promise<Plain> } => ({
    run: async (...parts) => {
      const args: string[] = [];
      for (const part of parts) for (const arg of Array.isArray(part) ? part : [part]) args.push(String(arg));
      return plain((await executeAsSent((engine() as EngineUnderTest).engine, [args], { transaction: false, caller: CLIENT }))[0]);
    },
  });

  it('RPUSHes and LPUSHes 130k values, in Redis order, and LTRIMs the result', async () => {
    const { run } = current();
    const many = values(130_000);
    expect(await run('RPUSH', 'list', many)).toBe(130_000);
    expect(await run('LPUSH', 'list', many)).toBe(260_000);
    expect(await run('LRANGE', 'list', '0', '1')).toEqual(['v129999', 'v129998']);
    expect(await run('LRANGE', 'list', '129999', '130000')).toEqual(['v0', 'v0']);
    expect(await run('LRANGE', 'list', '-1', '-1')).toEqual(['v129999']);
    expect(await run('LTRIM', 'list', '1', '-2')).toBe('OK');
    expect([await run('LLEN', 'list'), await run('LINDEX', 'list', '0'), await run('LINDEX', 'list', '-1')]).toEqual([259_998, 'v129998', 'v129998']);
    expect(await run('LPUSH', 'fresh', many)).toBe(130_000);
    expect(await run('LINDEX', 'fresh', '0')).toBe('v129999');
  });

  it('runs BITOP over 200k keys', async () => {
    const { run } = current();
    const keys = values(200_000, 'bits:');
    expect(await run('MSET', keys.flatMap((key, index) => [key, index === 0 ? '\x0f\xff' : '\xff']))).toBe('OK');
    expect(await run('BITOP', 'AND', 'and', keys)).toBe(2);
    expect(await run('GET', 'and')).toBe('\x0f\x00');
    expect(await run('BITOP', 'OR', 'or', keys)).toBe(2);
    expect(await run('GET', 'or')).toBe('\xff\xff');
    expect(await run('DEL', keys)).toBe(200_000);
  });

  it('runs SADD, ZADD, HSET, ZREM and DEL with 200k members each', async () => {
    const { run } = current();
    const many = values(200_000);
    expect(await run('SADD', 'set', many)).toBe(200_000);
    expect(await run('HSET', 'hash', many.flatMap((member) => [member, 'x']))).toBe(200_000);
    // Scores descending, so every member added or removed is at the front of the order: spliced one
    // by one, that moved the whole array each time (13 s for these two commands).
    const started = Date.now();
    expect(await run('ZADD', 'zset', many.flatMap((member, index) => [200_000 - index, member]))).toBe(200_000);
    expect(await run('ZRANGE', 'zset', '0', '1')).toEqual(['v199999', 'v199998']);
    expect(await run('ZREM', 'zset', [...many].reverse())).toBe(200_000);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await run('DEL', 'set', 'hash', 'zset')).toBe(2);
  });
});

describe('a sorted set changed in a batch ends in the order of one changed member by member', () => {
  const change = fc.oneof(
    fc.record({ kind: fc.constant('set' as const), member: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), score: fc.integer({ min: -3, max: 3 }) }),
    fc.record({ kind: fc.constant('delete' as const), member: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), score: fc.constant(0) }),
  );

  it('agrees for any sequence of sets and deletes, short or past the splice limit', () => {
    fc.assert(
      fc.property(fc.array(change, { maxLength: 80 }), fc.array(change, { maxLength: 80 }), (before, changes) => {
        const apply = (zset: SortedSet, list: typeof changes): boolean[] =>
          list.map((step) => (step.kind === 'set' ? zset.set(step.member, step.score) : zset.delete(step.member)));
        const one = new SortedSet();
        const batched = new SortedSet();
        apply(one, before);
        apply(batched, before);
        const answers = apply(one, changes);
        expect(batched.batch(() => apply(batched, changes))).toEqual(answers);
        expect({ order: [...batched.all()], size: batched.size, rankOfC: batched.rank('c') }).toEqual({ order: [...one.all()], size: one.size, rankOfC: one.rank('c') });
      }),
      { numRuns: 2000 },
    );
  });
});
