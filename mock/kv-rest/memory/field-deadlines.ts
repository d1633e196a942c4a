// The deadlines of a hash's fields (HEXPIRE, HSETEX ...), kept beside the hash's own field map:
// each field's deadline by name, and a min-heap of (deadline, field) so that a read asks "has
// anything expired?" in O(1) and removes what has in O(log n) per removed field, never scanning
// every field. Heap entries are not removed when a deadline changes or a field goes; they are
// recognised as stale when they reach the top (their deadline no longer matches), and the heap is
// rebuilt when stale entries outnumber live ones, so its size stays linear in the live deadlines.

interface HeapEntry {
  readonly deadline: number;
  readonly field: string;
}

/** Stale entries allowed beyond twice the live ones before the heap is rebuilt. */
const COMPACTION_SLACK = 32;

export class FieldDeadlines {
  private readonly byField = new Map<string, number>();
  private heap: HeapEntry[] = [];

  /** Fields with a deadline. */
  get size(): number {
    return this.byField.size;
  }

  /** The field's deadline in ms since the epoch, or undefined when it has none. */
  get(field: string): number | undefined {
    return this.byField.get(field);
  }

  set(field: string, deadline: number): void {
    this.byField.set(field, deadline);
    this.push({ deadline, field });
    if (this.heap.length > 2 * this.byField.size + COMPACTION_SLACK) this.rebuild();
  }

  /** Forgets the field's deadline (the field was deleted, overwritten or persisted); true when it had one. */
  delete(field: string): boolean {
    return this.byField.delete(field);
  }

  /** The earliest deadline, possibly of a stale entry (never later than the earliest live one); Infinity when none. */
  get earliest(): number {
    return this.heap.length > 0 ? this.heap[0].deadline : Infinity;
  }

  /** Removes and returns the fields whose deadline is at or before `now`. */
  takeExpired(now: number): string[] {
    const expired: string[] = [];
    while (this.heap.length > 0 && this.heap[0].deadline <= now) {
      const { deadline, field } = this.pop();
      if (this.byField.get(field) !== deadline) continue;
      this.byField.delete(field);
      expired.push(field);
    }
    return expired;
  }

  clone(): FieldDeadlines {
    const copy = new FieldDeadlines();
    for (const [field, deadline] of this.byField) copy.set(field, deadline);
    return copy;
  }

  private rebuild(): void {
    const live = [...this.byField].map(([field, deadline]) => ({ deadline, field }));
    this.heap = [];
    for (const entry of live) this.push(entry);
  }

  private push(entry: HeapEntry): void {
    const heap = this.heap;
    heap.push(entry);
    let index = heap.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (heap[parent].deadline <= entry.deadline) break;
      heap[index] = heap[parent];
      index = parent;
    }
    heap[index] = entry;
  }

  private pop(): HeapEntry {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop() as HeapEntry;
    if (heap.length === 0) return top;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child = right < heap.length && heap[right].deadline < heap[left].deadline ? right : left;
      if (heap[child].deadline >= last.deadline) break;
      heap[index] = heap[child];
      index = child;
    }
    heap[index] = last;
    return top;
  }
}
