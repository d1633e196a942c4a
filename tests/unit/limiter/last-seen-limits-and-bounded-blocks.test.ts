// The instance's memory of live limits: the last valid limit the store applied per rule (the
// configured tokens before any answer; a foreign value's NaN is never remembered), whether it rose;
// and block-cache entries held for less than their reset, or forgotten a whole strategy at once.
import { BlockedCache } from '../../../server/src/limiter/blocked-cache';
import { LastSeenLimits } from '../../../server/src/limiter/last-seen-limits';

it('remembers each rule\'s last valid limit and says when it rose', () => {
  const limits = new LastSeenLimits([10, 5]);
  const rose = [limits.saw(0, 50), limits.saw(0, 50), limits.saw(0, 20), limits.saw(0, NaN), limits.saw(0, 2.5), limits.saw(0, 0), limits.saw(1, 6)];
  expect([rose, limits.of(0), limits.of(1)]).toEqual([[true, false, false, false, false, false, true], 20, 6]);
});

it('holds a block until the earlier of its reset and its bound, answering with the reset', () => {
  const cache = new BlockedCache(10);
  cache.block(0, 'GET', 'bounded', 60_000, 10_000);
  cache.block(0, 'GET', 'short', 5_000, 10_000);
  expect([cache.blockedUntil(0, 'GET', 'bounded', 9_999), cache.blockedUntil(0, 'GET', 'bounded', 10_000), cache.blockedUntil(0, 'GET', 'short', 4_999), cache.blockedUntil(0, 'GET', 'short', 5_000)]).toEqual([60_000, undefined, 5_000, undefined]);
});

it('forgets every blocked caller of one strategy and keeps the others\'', () => {
  const cache = new BlockedCache(10);
  for (const index of [1, 2, 12]) for (const caller of ['a', 'b']) cache.block(index, 'GET', caller, 1000);
  cache.forgetStrategy(1);
  expect([cache.size, cache.blockedUntil(12, 'GET', 'a', 0), cache.blockedUntil(1, 'GET', 'a', 0)]).toEqual([4, 1000, undefined]);
});
