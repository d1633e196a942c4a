// The stream value: entries in ID order plus the bookkeeping Redis 7.0 keeps (last generated ID,
// first entry ID, largest deleted ID, entries ever added) and the consumer groups. Entries are kept
// in nodes of at most 100 appended entries, as Redis's listpacks with the default
// stream-node-max-entries, because approximate trimming (`~`) removes whole nodes only and its
// result must match Redis's; the listpacks' 4 KB byte limit is not modelled (see docs/known-differences.md).
import { OrderedIds } from './ordered-ids';
import { MAX_ID, MIN_ID, type StreamId } from './stream-id';

export const NODE_MAX_ENTRIES = 100;

export interface StreamEntry {
  readonly id: StreamId;
  /** Field, value, field, value ... */
  readonly fields: readonly string[];
}

interface Node {
  /** The node's live entries in ID order (deleted ones are gone). */
  entries: StreamEntry[];
  /** Entries ever appended to the node: it takes no more once this reaches NODE_MAX_ENTRIES. */
  appended: number;
  /** The last ID ever appended, deleted or not (what MINID trimming compares). */
  lastId: StreamId;
}

/** A delivered, not yet acknowledged entry; the group's and the consumer's lists share it. */
export interface PendingEntry {
  consumer: Consumer | undefined;
  deliveryTime: number;
  deliveryCount: number;
}

export interface Consumer {
  readonly name: string;
  seenTime: number;
  readonly pending: OrderedIds<PendingEntry>;
}

export interface ConsumerGroup {
  lastId: StreamId;
  /** Entries the group has read, or undefined when it cannot be known (after XDEL, SETID ...). */
  entriesRead: bigint | undefined;
  readonly pending: OrderedIds<PendingEntry>;
  readonly consumers: Map<string, Consumer>;
}

export type TrimStrategy = { readonly kind: 'maxlen'; readonly maxLength: number } | { readonly kind: 'minid'; readonly minId: StreamId };

export interface TrimOptions {
  readonly strategy: TrimStrategy;
  /** Whole nodes only (`~`). */
  readonly approximate: boolean;
  /** Most entries to remove (0: no limit). */
  readonly limit: number;
}

export const byName = <T>(map: ReadonlyMap<string, T>): [string, T][] =>
  [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

export class Stream {
  private nodes: Node[] = [];
  length = 0;
  lastId: StreamId = MIN_ID;
  /** Recorded first entry ID (0-0 when empty), updated as Redis updates it. */
  firstId: StreamId = MIN_ID;
  maxDeletedId: StreamId = MIN_ID;
  entriesAdded = 0n;
  readonly groups = new Map<string, ConsumerGroup>();

  /** Listpack nodes, as XINFO STREAM's radix-tree-keys. */
  get nodeCount(): number {
    return this.nodes.length;
  }

  /** Appends an entry whose ID the caller has checked is above lastId. */
  append(id: StreamId, fields: readonly string[]): void {
    let tail = this.nodes[this.nodes.length - 1];
    if (tail === undefined || tail.appended >= NODE_MAX_ENTRIES) {
      tail = { entries: [], appended: 0, lastId: id };
      this.nodes.push(tail);
    }
    tail.entries.push({ id, fields });
    tail.appended++;
    tail.lastId = id;
    this.length++;
    this.lastId = id;
    this.entriesAdded++;
    if (this.length === 1) this.firstId = id;
  }

  /** The node and position of the first live entry >= id. */
  private seek(id: StreamId): [node: number, index: number] {
    let low = 0;
    let high = this.nodes.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.nodes[middle].lastId < id) low = middle + 1;
      else high = middle;
    }
    if (low === this.nodes.length) return [low, 0];
    const entries = this.nodes[low].entries;
    let start = 0;
    let end = entries.length;
    while (start < end) {
      const middle = (start + end) >>> 1;
      if (entries[middle].id < id) start = middle + 1;
      else end = middle;
    }
    return start === entries.length ? [low + 1, 0] : [low, start];
  }

  get(id: StreamId): StreamEntry | undefined {
    const [node, index] = this.seek(id);
    const entry = this.nodes[node]?.entries[index];
    return entry?.id === id ? entry : undefined;
  }

  /** Entries from `start` to `end` inclusive, at most `count` (0: all), from the end when `reverse`. */
  range(start: StreamId, end: StreamId, count: number, reverse = false): StreamEntry[] {
    const found: StreamEntry[] = [];
    if (start > end) return found;
    if (!reverse) {
      for (let [node, index] = this.seek(start); node < this.nodes.length; node++, index = 0) {
        const entries = this.nodes[node].entries;
        for (; index < entries.length; index++) {
          if (entries[index].id > end) return found;
          found.push(entries[index]);
          if (found.length === count) return found;
        }
      }
      return found;
    }
    let [node, index] = end === MAX_ID ? [this.nodes.length, 0] : this.seek(end + 1n);
    for (;;) {
      index--;
      while (index < 0) {
        if (--node < 0) return found;
        index = this.nodes[node].entries.length - 1;
      }
      const entry = this.nodes[node].entries[index];
      if (entry.id < start) return found;
      found.push(entry);
      if (found.length === count) return found;
    }
  }

  /** The last live entry's ID, or 0-0 (Redis's streamLastValidID). */
  lastLiveId(): StreamId {
    const node = this.nodes[this.nodes.length - 1];
    return node ? node.entries[node.entries.length - 1].id : MIN_ID;
  }

  private firstLiveId(): StreamId {
    return this.nodes[0]?.entries[0]?.id ?? MIN_ID;
  }

  /** Removes one entry; a node left empty goes, as Redis frees an emptied listpack. */
  delete(id: StreamId): boolean {
    const [node, index] = this.seek(id);
    const entries = this.nodes[node]?.entries;
    if (entries?.[index]?.id !== id) return false;
    entries.splice(index, 1);
    if (entries.length === 0) this.nodes.splice(node, 1);
    this.length--;
    return true;
  }

  /** XDEL's bookkeeping after deleting `deleted` (ascending or not). */
  noteDeleted(deleted: readonly StreamId[]): void {
    if (deleted.length === 0) return;
    let firstWasDeleted = false;
    for (const id of deleted) {
      if (id === this.firstId) firstWasDeleted = true;
      if (id > this.maxDeletedId) this.maxDeletedId = id;
    }
    if (this.length === 0) this.firstId = MIN_ID;
    else if (firstWasDeleted) this.firstId = this.firstLiveId();
  }

  /** Redis's streamTrim: whole nodes from the head, then (unless approximate) entries of one node. */
  trim({ strategy, approximate, limit }: TrimOptions): number {
    let deleted = 0;
    let removedNodes = 0;
    for (; removedNodes < this.nodes.length; removedNodes++) {
      if (strategy.kind === 'maxlen' && this.length <= strategy.maxLength) break;
      const node = this.nodes[removedNodes];
      const live = node.entries.length;
      if (limit && deleted + live > limit) break;
      const removeNode = strategy.kind === 'maxlen' ? this.length - live >= strategy.maxLength : node.lastId < strategy.minId;
      if (removeNode) {
        this.length -= live;
        deleted += live;
        continue;
      }
      if (approximate) break;
      let cut = 0;
      while (cut < live && (strategy.kind === 'maxlen' ? this.length - cut > strategy.maxLength : node.entries[cut].id < strategy.minId)) cut++;
      node.entries.splice(0, cut);
      this.length -= cut;
      deleted += cut;
      break;
    }
    this.nodes.splice(0, removedNodes);
    if (this.length === 0) this.firstId = MIN_ID;
    else if (deleted) this.firstId = this.firstLiveId();
    return deleted;
  }

  /** Whether a range from `start` on holds a deleted entry (Redis's streamRangeHasTombstones). */
  hasTombstonesFrom(start: StreamId): boolean {
    if (this.length === 0 || this.maxDeletedId === MIN_ID) return false;
    if (this.firstId > this.maxDeletedId) return false;
    return start <= this.maxDeletedId;
  }

  /** An ID's logical read counter, or undefined when it cannot be known (streamEstimateDistanceFromFirstEverEntry). */
  readCounterOf(id: StreamId): bigint | undefined {
    if (this.entriesAdded === 0n) return 0n;
    if (this.length === 0 && id <= this.lastId) return this.entriesAdded;
    if (id === this.lastId) return this.entriesAdded;
    if (id > this.lastId) return undefined;
    if (this.maxDeletedId === MIN_ID || this.maxDeletedId < this.firstId) {
      if (id < this.firstId) return this.entriesAdded - BigInt(this.length);
      if (id === this.firstId) return this.entriesAdded - BigInt(this.length) + 1n;
    }
    return undefined;
  }

  /** The group's lag, or undefined when Redis answers nil. */
  lagOf(group: ConsumerGroup): bigint | undefined {
    if (this.entriesAdded === 0n) return 0n;
    if (group.entriesRead !== undefined && !this.hasTombstonesFrom(group.lastId)) return this.entriesAdded - group.entriesRead;
    const read = this.readCounterOf(group.lastId);
    return read === undefined ? undefined : this.entriesAdded - read;
  }

  /** A deep copy (COPY): entries are immutable and shared, groups and their lists are copied. */
  clone(): Stream {
    const copy = new Stream();
    copy.nodes = this.nodes.map((node) => ({ entries: [...node.entries], appended: node.appended, lastId: node.lastId }));
    copy.length = this.length;
    copy.lastId = this.lastId;
    copy.firstId = this.firstId;
    copy.maxDeletedId = this.maxDeletedId;
    copy.entriesAdded = this.entriesAdded;
    for (const [name, group] of this.groups) copy.groups.set(name, cloneGroup(group));
    return copy;
  }
}

function cloneGroup(group: ConsumerGroup): ConsumerGroup {
  const consumers = new Map<string, Consumer>();
  for (const [name, consumer] of group.consumers) consumers.set(name, { name, seenTime: consumer.seenTime, pending: new OrderedIds() });
  const pending = group.pending.clone((entry) => ({ ...entry, consumer: entry.consumer && consumers.get(entry.consumer.name) }));
  for (const id of pending.ids()) {
    const entry = pending.get(id) as PendingEntry;
    entry.consumer?.pending.set(id, entry);
  }
  return { lastId: group.lastId, entriesRead: group.entriesRead, pending, consumers };
}
