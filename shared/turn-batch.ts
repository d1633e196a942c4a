// Batching by turn of the event loop, the one way the plugin's store requester and the key-value
// server's engines group work: what arrives during one turn is handed over together once the turn's
// I/O callbacks have run (setImmediate), so N requests that arrive together cost one round trip or
// one write instead of N. At low load nothing else arrives and the turn ends at once: the wait is
// the rest of the current poll phase, a few microseconds. Import-free, so both server/ and mock/ use
// it without depending on each other.

/** Collects items during one turn and hands them, in arrival order, to `flush` at its end. */
export class TurnBatch<T> {
  private items: T[] = [];

  constructor(private readonly flush: (items: T[]) => void) {}

  /** Whether items of this turn are waiting for its end. */
  get waiting(): boolean {
    return this.items.length > 0;
  }

  add(item: T): void {
    if (this.items.length === 0) setImmediate(this.endTurn);
    this.items.push(item);
  }

  private readonly endTurn = (): void => {
    const items = this.items;
    this.items = [];
    this.flush(items);
  };
}
