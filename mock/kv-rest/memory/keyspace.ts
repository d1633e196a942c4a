// The memory engine's keyspace: typed values by key, with millisecond expiry that is enforced
// lazily (on every lookup) and actively (a bounded sweep on a timer), the way Redis does it.
import { error, type ErrorReply } from '../reply';
import type { SortedSet } from './sorted-set';

export interface StringValue { readonly type: 'string'; value: string }
export interface HashValue { readonly type: 'hash'; readonly fields: Map<string, string> }
export interface ListValue { readonly type: 'list'; readonly items: string[] }
export interface SetValue { readonly type: 'set'; readonly members: Set<string> }
export interface ZSetValue { readonly type: 'zset'; readonly zset: SortedSet }

export type StoredValue = StringValue | HashValue | ListValue | SetValue | ZSetValue;
export type ValueType = StoredValue['type'];
type ValueOf<T extends ValueType> = Extract<StoredValue, { type: T }>;

export const WRONGTYPE: ErrorReply = error('WRONGTYPE Operation against a key holding the wrong kind of value');

export class Keyspace {
  private readonly values = new Map<string, StoredValue>();
  /** Absolute deadlines in ms for keys that have one. */
  private readonly deadlines = new Map<string, number>();

  get size(): number {
    return this.values.size;
  }

  /** The live value at `key`, removing it first when it has expired. */
  lookup(key: string, now: number): StoredValue | undefined {
    const deadline = this.deadlines.get(key);
    if (deadline !== undefined && deadline <= now) {
      this.delete(key);
      return undefined;
    }
    return this.values.get(key);
  }

  /** The value when it has type `type`, undefined when absent, WRONGTYPE otherwise. */
  lookupTyped<T extends ValueType>(key: string, type: T, now: number): ValueOf<T> | undefined | ErrorReply {
    const value = this.lookup(key, now);
    if (value === undefined) return undefined;
    return value.type === type ? (value as ValueOf<T>) : WRONGTYPE;
  }

  /** Stores `value`; the key's expiry is cleared unless `keepTtl`. */
  set(key: string, value: StoredValue, keepTtl = false): void {
    this.values.set(key, value);
    if (!keepTtl) this.deadlines.delete(key);
  }

  delete(key: string): boolean {
    this.deadlines.delete(key);
    return this.values.delete(key);
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
      if (this.lookup(key, now) !== undefined) yield key;
    }
  }

  flush(): void {
    this.values.clear();
    this.deadlines.clear();
  }

  /** Removes up to `budget` expired keys; returns how many were removed. */
  sweepExpired(now: number, budget: number): number {
    let removed = 0;
    for (const [key, deadline] of this.deadlines) {
      if (removed >= budget) break;
      if (deadline <= now) {
        this.delete(key);
        removed++;
      }
    }
    return removed;
  }
}
