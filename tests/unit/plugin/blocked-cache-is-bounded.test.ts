// The block cache answers a blocked caller until its reset, forgets it afterwards, and never holds
// more than its capacity (the oldest entry goes first), so a million callers cannot exhaust memory.
import { BlockedCache } from '../../../server/src/limiter/blocked-cache';

describe('BlockedCache', () => {
  it('remembers a caller until its reset, then forgets it', () => {
    const cache = new BlockedCache(10);
    cache.block('a', 1_000);
    expect(cache.blockedUntil('a', 999)).toBe(1_000);
    expect(cache.blockedUntil('a', 1_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('holds at most its capacity, dropping the oldest entry first', () => {
    const cache = new BlockedCache(3);
    for (let caller = 0; caller < 1_000; caller++) cache.block(`c${caller}`, 10_000);
    expect(cache.size).toBe(3);
    expect(['c996', 'c997', 'c998', 'c999'].map((key) => cache.blockedUntil(key, 0))).toEqual([undefined, 10_000, 10_000, 10_000]);
  });

  it('refreshes a caller blocked again instead of keeping two entries', () => {
    const cache = new BlockedCache(2);
    cache.block('a', 100);
    cache.block('b', 100);
    cache.block('a', 200);
    cache.block('c', 100);
    expect([cache.blockedUntil('a', 0), cache.blockedUntil('b', 0), cache.blockedUntil('c', 0)]).toEqual([200, undefined, 100]);
  });

  it('is off with capacity 0', () => {
    const cache = new BlockedCache(0);
    cache.block('a', 100);
    expect(cache.blockedUntil('a', 0)).toBeUndefined();
  });
});
