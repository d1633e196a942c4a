// The memory engine's keyspace: typed values by key, with millisecond expiry that is enforced
// lazily (on every lookup) and actively (a bounded sweep on a timer), the way Redis does it. Hash
// fields with their own deadlines (HEXPIRE ...) expire the same way: a lookup removes the hash's
// expired fields (and the key with its last field), so no read ever sees one.
import { error, type ErrorReply } from '../reply';
import { FieldDeadlines } from './field-deadlines';
import { ResumableWalk } from './resumable-walk';
import { cloneJson, type JsonValue } from './json/json-value';
import type { SortedSet } from './sorted-set';
import type { Stream } from './stream';

export interface StringValue {
  readonly type: 'string';
  value: string;
  /**
   * Set when the value was changed in place (APPEND, SETRANGE, SETBIT, BITFIELD ...) or built as
   * bytes (BITOP, HyperLogLog), which Redis keeps as a raw string whatever it holds (OBJECT ENCODING).
   */
  raw?: boolean;
}
export interface HashValue {
  readonly type: 'hash';
  readonly fields: Map<string, string>;
  /** Deadlines of the fields that have one; created by the first field TTL. */
  fieldDeadlines?: FieldDeadlines;
}
export interface ListValue { readonly type: 'list'; readonly items: string[] }
export interface SetValue { readonly type: 'set'; readonly members: Set<string> }
export interface ZSetValue { readonly type: 'zset'; readonly zset: SortedSet }
/** Streams stay when emptied, as in Redis (their IDs and groups live on). */
export interface StreamValue { readonly type: 'stream'; readonly stream: Stream }

/** A RedisJSON document; its type is named as RedisJSON's module type, which TYPE answers. */
export interface JsonDocumentValue { readonly type: 'ReJSON-RL'; root: JsonValue }

export type StoredValue = StringValue | HashValue | ListValue | SetValue | ZSetValue | StreamValue | JsonDocumentValue;
export type ValueType = StoredValue['type'];
type ValueOf<T extends ValueType> = Extract<StoredValue, { type: T }>;

/** A deep copy of a value, for COPY: later writes to either key must not show in the other. */
export function cloneValue(value: StoredValue): StoredValue {
  switch (value.type) {
    case 'string':
      return { type: 'string', value: value.value, ...(value.raw ? { raw: true } : {}) };
    case 'hash':
      return { type: 'hash', fields: new Map(value.fields), ...(value.fieldDeadlines ? { fieldDeadlines: value.fieldDeadlines.clone() } : {}) };
    case 'list':
      return { type: 'list', items: [...value.items] };
    case 'set':
      return { type: 'set', members: new Set(value.members) };
    case 'zset':
      return { type: 'zset', zset: value.zset.clone() };
    case 'stream':
      return { type: 'stream', stream: value.stream.clone() };
    case 'ReJSON-RL':
      return { type: 'ReJSON-RL', root: cloneJson(value.root) };
  }
}

export const WRONGTYPE: ErrorReply = error('WRONGTYPE Operation against a key holding the wrong kind of value');

/** One SCAN step: the keys visited (live ones only) and the cursor to continue from (0 when done). */
export interface ScanStep {
  readonly keys: string[];
  readonly cursor: number;
}

export class Keyspace {
  private readonly values = new Map<string, StoredValue>();
  /** Absolute deadlines in ms for keys that have one. */
  private readonly deadlines = new Map<string, number>();
  /**
   * SCAN order: every key gets a sequence number when it is created, and cursors are sequence
   * numbers, so a key present for a whole iteration is returned whatever is added or deleted meanwhile.
   */
  private readonly sequenceOf = new Map<string, number>();
  private scanLog: { readonly sequence: number; readonly key: string }[] = [];
  private nextSequence = 1;
  /** Active expiry walks the deadlines a few at a time, resuming where it stopped. */
  private readonly expiryWalk = new ResumableWalk(() => this.deadlines.entries());
  /**
   * When each value was last looked up or stored, for OBJECT IDLETIME; kept by value (not key) so
   * that RENAME keeps it, as Redis keeps its object's access clock.
   */
  private readonly lastAccess = new WeakMap<StoredValue, number>();
  /** Keys of hashes that have field deadlines, walked the same way so expired fields go even when unread. */
  private readonly withFieldDeadlines = new Set<string>();
  private readonly fieldExpiryWalk = new ResumableWalk(() => this.withFieldDeadlines.values());

  get size(): number {
    return this.values.size;
  }

  /** The live value at `key`, removing it first when it has expired; counts as an access (OBJECT IDLETIME). */
  lookup(key: string, now: number): StoredValue | undefined {
    const value = this.peek(key, now);
    if (value !== undefined) this.lastAccess.set(value, now);
    return value;
  }

  /** The live value at `key` without counting an access, as Redis's OBJECT, KEYS and SCAN look. */
  peek(key: string, now: number): StoredValue | undefined {
    const deadline = this.deadlines.get(key);
    if (deadline !== undefined && deadline <= now) {
      this.delete(key);
      return undefined;
    }
    const value = this.values.get(key);
    if (value?.type === 'hash' && value.fieldDeadlines !== undefined && value.fieldDeadlines.earliest <= now) return this.expireFields(key, value, now);
    return value;
  }

  /** Removes the hash's expired fields; the key goes with its last field. */
  private expireFields(key: string, hash: HashValue, now: number): HashValue | undefined {
    for (const field of hash.fieldDeadlines?.takeExpired(now) ?? []) hash.fields.delete(field);
    if (hash.fields.size > 0) return hash;
    this.delete(key);
    return undefined;
  }

  /** Notes that the hash at `key` has field deadlines, for active expiry (call after setting one). */
  trackFieldDeadlines(key: string): void {
    this.withFieldDeadlines.add(key);
  }

  /** The value when it has type `type`, undefined when absent, WRONGTYPE otherwise. */
  lookupTyped<T extends ValueType>(key: string, type: T, now: number): ValueOf<T> | undefined | ErrorReply {
    const value = this.lookup(key, now);
    if (value === undefined) return undefined;
    return value.type === type ? (value as ValueOf<T>) : WRONGTYPE;
  }

  /** Stores `value`; the key's expiry is cleared unless `keepTtl`. */
  set(key: string, value: StoredValue, keepTtl = false): void {
    if (!this.values.has(key)) {
      const sequence = this.nextSequence++;
      this.sequenceOf.set(key, sequence);
      this.scanLog.push({ sequence, key });
    }
    this.values.set(key, value);
    // A stored value counts as accessed now; set() has no command time of its own, Date.now is the same clock.
    if (!this.lastAccess.has(value)) this.lastAccess.set(value, Date.now());
    if (!keepTtl) this.deadlines.delete(key);
    if (value.type === 'hash' && value.fieldDeadlines !== undefined && value.fieldDeadlines.size > 0) this.withFieldDeadlines.add(key);
  }

  delete(key: string): boolean {
    this.deadlines.delete(key);
    this.withFieldDeadlines.delete(key);
    this.sequenceOf.delete(key);
    const existed = this.values.delete(key);
    if (existed && this.scanLog.length > 64 && this.scanLog.length > 2 * this.values.size) this.compactScanLog();
    return existed;
  }

  private compactScanLog(): void {
    this.scanLog = this.scanLog.filter((entry) => this.sequenceOf.get(entry.key) === entry.sequence);
  }

  /** Visits up to `count` live keys from `cursor` in creation order (cursor 0 starts over). */
  scan(cursor: number, count: number, now: number): ScanStep {
    const log = this.scanLog;
    let low = 0;
    let high = log.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (log[middle].sequence < cursor) low = middle + 1;
      else high = middle;
    }
    const keys: string[] = [];
    let index = low;
    for (; index < log.length && keys.length < count; index++) {
      const { sequence, key } = log[index];
      if (this.sequenceOf.get(key) === sequence && this.peek(key, now) !== undefined) keys.push(key);
    }
    while (index < log.length && this.sequenceOf.get(log[index].key) !== log[index].sequence) index++;
    return { keys, cursor: index < log.length ? log[index].sequence : 0 };
  }

  /** A live key chosen at random, or undefined when the keyspace is empty. */
  randomKey(now: number): string | undefined {
    while (this.values.size > 0) {
      const { sequence, key } = this.scanLog[Math.floor(Math.random() * this.scanLog.length)];
      if (this.sequenceOf.get(key) === sequence && this.peek(key, now) !== undefined) return key;
    }
    return undefined;
  }

  /** Milliseconds since the value was last looked up or stored. */
  idleMs(value: StoredValue, now: number): number {
    return Math.max(0, now - (this.lastAccess.get(value) ?? now));
  }

  /** Removes a key whose collection became empty, as Redis never keeps empty collections. */
  deleteIfEmpty(key: string, value: StoredValue): void {
    const empty =
      (value.type === 'hash' && value.fields.size === 0) ||
      (value.type === 'list' && value.items.length === 0) ||
      (value.type === 'set' && value.members.size === 0) ||
      (value.type === 'zset' && value.zset.size === 0);
    if (empty) this.delete(key);
  }

  /** Deadline in ms, or undefined when the key has none (call after lookup). */
  deadline(key: string): number | undefined {
    return this.deadlines.get(key);
  }

  setDeadline(key: string, deadline: number | undefined): void {
    if (deadline === undefined) this.deadlines.delete(key);
    else this.deadlines.set(key, deadline);
  }

  /** Live keys, in insertion order; expired ones are skipped and removed. */
  *keys(now: number): IterableIterator<string> {
    for (const key of [...this.values.keys()]) {
      if (this.peek(key, now) !== undefined) yield key;
    }
  }

  /** Number of keys that have a deadline (INFO's `expires`). */
  get expiringCount(): number {
    return this.deadlines.size;
  }

  flush(): void {
    this.values.clear();
    this.deadlines.clear();
    this.sequenceOf.clear();
    this.scanLog = [];
    this.expiryWalk.reset();
    this.withFieldDeadlines.clear();
    this.fieldExpiryWalk.reset();
  }

  /**
   * Examines up to `budget` keys that have a deadline, resuming where the previous sweep stopped,
   * and removes the expired ones; returns how many were removed. Bounded so a sweep never stalls
   * the server however many keys expire at once.
   */
  sweepExpired(now: number, budget: number): number {
    let removed = 0;
    for (const [key, deadline] of this.expiryWalk.take(budget, () => this.deadlines.size > 0)) {
      if (deadline > now) continue;
      this.delete(key);
      removed++;
    }
    // Hashes with field deadlines, the same way: the lookup removes their expired fields.
    for (const key of this.fieldExpiryWalk.take(budget, () => this.withFieldDeadlines.size > 0)) {
      const value = this.peek(key, now);
      if (value?.type !== 'hash' || (value.fieldDeadlines?.size ?? 0) === 0) this.withFieldDeadlines.delete(key);
    }
    return removed;
  }
}
