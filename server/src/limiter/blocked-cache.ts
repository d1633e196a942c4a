// Callers refused until a known reset time, remembered in memory so that a flood from one caller
// costs no store round trips. Bounded: past `capacity` entries the oldest is forgotten first.
export class BlockedCache {
  private readonly resets = new Map<string, number>();

  constructor(private readonly capacity: number) {}

  /** The reset time (ms epoch) while `key` is blocked, else undefined. */
  blockedUntil(key: string, now: number): number | undefined {
    const reset = this.resets.get(key);
    if (reset === undefined) return undefined;
    if (reset > now) return reset;
    this.resets.delete(key);
    return undefined;
  }

  block(key: string, reset: number): void {
    if (this.capacity === 0) return;
    this.resets.delete(key);
    if (this.resets.size >= this.capacity) this.resets.delete(this.resets.keys().next().value as string);
    this.resets.set(key, reset);
  }

  /** Forgets a caller at once (after an admin reset of its counters). */
  forget(key: string): void {
    this.resets.delete(key);
  }

  get size(): number {
    return this.resets.size;
  }
}
