// A map keyed by stream ID that also iterates in ID order: what a consumer group's pending entries
// list (and each consumer's) needs. Inserts at the end (the usual case: new deliveries) append;
// any other insert or any delete only marks the order stale, and the next ordered read rebuilds it
// once, so a command touching k IDs costs k map operations plus at most one sort, never k splices.
import type { StreamId } from './stream-id';

export class OrderedIds<V> {
  private readonly byId = new Map<StreamId, V>();
  private order: StreamId[] = [];
  private stale = false;

  get size(): number {
    return this.byId.size;
  }

  get(id: StreamId): V | undefined {
    return this.byId.get(id);
  }

  has(id: StreamId): boolean {
    return this.byId.has(id);
  }

  set(id: StreamId, value: V): void {
    if (!this.byId.has(id)) {
      const last = this.order[this.order.length - 1];
      if (!this.stale && (last === undefined || id > last)) this.order.push(id);
      else this.stale = true;
    }
    this.byId.set(id, value);
  }

  delete(id: StreamId): boolean {
    const existed = this.byId.delete(id);
    if (existed) this.stale = true;
    return existed;
  }

  /** IDs in ascending order. */
  ids(): readonly StreamId[] {
    if (this.stale) {
      this.order = [...this.byId.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      this.stale = false;
    }
    return this.order;
  }

  /** Position of the first ID >= `id` in ids(). */
  firstAtOrAfter(id: StreamId): number {
    const ids = this.ids();
    let low = 0;
    let high = ids.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (ids[middle] < id) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  values(): IterableIterator<V> {
    return this.byId.values();
  }

  clone(copyValue: (value: V) => V): OrderedIds<V> {
    const copy = new OrderedIds<V>();
    for (const id of this.ids()) copy.set(id, copyValue(this.byId.get(id) as V));
    return copy;
  }
}
