// Callers refused until a known reset time, remembered in memory so that a flood from one caller
// costs no store round trips. Bounded: past `capacity` entries the oldest is forgotten first. An
// entry may be held for less time than its reset (`block`'s `until`): the store is then asked again
// sooner, which is how a raised live limit reaches an instance that only refuses from memory.
import { BoundedExpiringMap } from './bounded-expiring-map';

/**
 * The block cache's key: one strategy, one method in its keys, one caller on them (what the
 * strategy's limiter key holds besides its fixed route and limiter). Short on purpose: every
 * request of a blocked caller builds and hashes it, and hashing a fresh string costs by its length
 * (the whole limiter key made the look-up the blocked path's largest cost). Unambiguous: the index
 * is digits and the method has no `:`, so the caller is everything after the second `:`.
 */
export const blockKey = (strategyIndex: number, method: string, caller: string): string => `${strategyIndex}:${method}:${caller}`;

export class BlockedCache {
  private readonly resets: BoundedExpiringMap<number>;

  constructor(capacity: number) {
    this.resets = new BoundedExpiringMap(capacity);
  }

  /** The reset time (ms epoch) while `key` is blocked, else undefined. */
  blockedUntil(key: string, now: number): number | undefined {
    return this.resets.get(key, now);
  }

  /** Refuses `key` from memory until `until` (default: `reset`), answering with `reset`. */
  block(key: string, reset: number, until = reset): void {
    this.resets.set(key, reset, Math.min(reset, until));
  }

  /** Forgets a caller at once (after an admin reset of its counters). */
  forget(key: string): void {
    this.resets.delete(key);
  }

  /** Forgets every caller of one strategy at once (after its limit was raised). */
  forgetStrategy(strategyIndex: number): void {
    this.resets.deleteStartingWith(`${strategyIndex}:`);
  }

  get size(): number {
    return this.resets.size;
  }
}
