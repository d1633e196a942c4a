// Callers refused until a known reset time, remembered in memory so that a flood from one caller
// costs no store round trips. Bounded: past `capacity` entries the oldest is forgotten first.
import { BoundedExpiringMap } from './bounded-expiring-map';

export class BlockedCache {
  private readonly resets: BoundedExpiringMap<number>;

  constructor(capacity: number) {
    this.resets = new BoundedExpiringMap(capacity);
  }

  /** The reset time (ms epoch) while `key` is blocked, else undefined. */
  blockedUntil(key: string, now: number): number | undefined {
    return this.resets.get(key, now);
  }

  block(key: string, reset: number): void {
    this.resets.set(key, reset, reset);
  }

  /** Forgets a caller at once (after an admin reset of its counters). */
  forget(key: string): void {
    this.resets.delete(key);
  }

  get size(): number {
    return this.resets.size;
  }
}
