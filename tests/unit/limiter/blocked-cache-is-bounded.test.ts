// The block cache answers a blocked caller until its reset, forgets it afterwards, and never holds
// more than its capacity (the oldest entry goes first), so a million callers cannot exhaust memory.
import fc from 'fast-check';
import { BlockedCache } from '../../../server/src/limiter/blocked-cache';

describe('BlockedCache', () => {
  it('remembers a caller until its reset, then forgets it', () => {
    const cache = new BlockedCache(10);
    cache.block(0, 'GET', 'a', 1_000);
    expect(cache.blockedUntil(0, 'GET', 'a', 999)).toBe(1_000);
    expect(cache.blockedUntil(0, 'GET', 'a', 1_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('holds at most its capacity, dropping the oldest entry first', () => {
    const cache = new BlockedCache(3);
    for (let caller = 0; caller < 1_000; caller++) cache.block(0, 'GET', `c${caller}`, 10_000);
    expect(cache.size).toBe(3);
    expect(['c996', 'c997', 'c998', 'c999'].map((key) => cache.blockedUntil(0, 'GET', key, 0))).toEqual([undefined, 10_000, 10_000, 10_000]);
  });

  it('refreshes a caller blocked again instead of keeping two entries', () => {
    const cache = new BlockedCache(2);
    cache.block(0, 'GET', 'a', 100);
    cache.block(0, 'GET', 'b', 100);
    cache.block(0, 'GET', 'a', 200);
    cache.block(0, 'GET', 'c', 100);
    expect([cache.blockedUntil(0, 'GET', 'a', 0), cache.blockedUntil(0, 'GET', 'b', 0), cache.blockedUntil(0, 'GET', 'c', 0)]).toEqual([200, undefined, 100]);
  });

  it('keeps a caller\'s blocks on each strategy and method apart, and drops the oldest block of the caller blocked longest ago', () => {
    const cache = new BlockedCache(3);
    cache.block(0, 'GET', 'a', 100);
    cache.block(1, 'GET', 'a', 200);
    cache.block(0, 'POST', 'b', 300);
    cache.block(0, 'GET', 'b', 400);
    expect([cache.size, cache.blockedUntil(0, 'GET', 'a', 0), cache.blockedUntil(1, 'GET', 'a', 0), cache.blockedUntil(0, 'POST', 'b', 0), cache.blockedUntil(0, 'GET', 'b', 0)]).toEqual([3, undefined, 200, 300, 400]);
  });

  it('answers, below its capacity, exactly what one map keyed by strategy, method and caller answers', () => {
    const slot = fc.record({ strategyIndex: fc.integer({ min: 0, max: 2 }), method: fc.constantFrom('GET', 'POST'), caller: fc.constantFrom('a', 'b', '1.2.3.4') });
    const operation = fc.oneof(
      fc.record({ kind: fc.constant('block' as const), slot, reset: fc.integer({ min: 1, max: 50 }), until: fc.integer({ min: 1, max: 50 }) }),
      fc.record({ kind: fc.constant('forget' as const), slot }),
      fc.record({ kind: fc.constant('forgetStrategy' as const), strategyIndex: fc.integer({ min: 0, max: 2 }) }),
      fc.record({ kind: fc.constant('lookUp' as const), slot, now: fc.integer({ min: 0, max: 50 }) }),
    );
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 60 }), (operations) => {
        const cache = new BlockedCache(100);
        const model = new Map<string, { reset: number; until: number }>();
        const keyOf = (s: { strategyIndex: number; method: string; caller: string }): string => `${s.strategyIndex}:${s.method}:${s.caller}`;
        for (const op of operations) {
          if (op.kind === 'block') {
            cache.block(op.slot.strategyIndex, op.slot.method, op.slot.caller, op.reset, op.until);
            model.set(keyOf(op.slot), { reset: op.reset, until: Math.min(op.reset, op.until) });
          } else if (op.kind === 'forget') {
            cache.forget(op.slot.strategyIndex, op.slot.method, op.slot.caller);
            model.delete(keyOf(op.slot));
          } else if (op.kind === 'forgetStrategy') {
            cache.forgetStrategy(op.strategyIndex);
            for (const key of model.keys()) if (key.startsWith(`${op.strategyIndex}:`)) model.delete(key);
          } else {
            const entry = model.get(keyOf(op.slot));
            const expected = entry && entry.until > op.now ? entry.reset : undefined;
            if (entry && expected === undefined) model.delete(keyOf(op.slot));
            expect(cache.blockedUntil(op.slot.strategyIndex, op.slot.method, op.slot.caller, op.now)).toBe(expected);
          }
          expect(cache.size).toBe(model.size);
        }
      }),
    );
  });

  it('is off with capacity 0', () => {
    const cache = new BlockedCache(0);
    cache.block(0, 'GET', 'a', 100);
    expect(cache.blockedUntil(0, 'GET', 'a', 0)).toBeUndefined();
  });
});
