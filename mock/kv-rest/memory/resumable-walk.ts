// A walk over a live collection a few items at a time, resuming where the previous walk stopped and
// starting over once it reaches the end: the keyspace's background expiry examines a bounded number
// of keys per step this way, so a sweep never stalls the server however many keys it holds.
export class ResumableWalk<T> {
  private iterator: Iterator<T> | undefined;

  /** `start` opens a fresh pass (a Map's or Set's iterator, which tolerates deletions while it runs). */
  constructor(private readonly start: () => Iterator<T>) {}

  /** Up to `budget` steps while `hasItems()`; reaching the end costs a step and starts a new pass. */
  *take(budget: number, hasItems: () => boolean): Generator<T> {
    for (let step = 0; step < budget && hasItems(); step++) {
      this.iterator ??= this.start();
      const next = this.iterator.next();
      if (next.done) {
        this.iterator = undefined;
        continue;
      }
      yield next.value;
    }
  }

  /** Forgets the position, for a collection that was emptied. */
  reset(): void {
    this.iterator = undefined;
  }
}
