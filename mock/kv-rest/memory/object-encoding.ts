// What OBJECT ENCODING and OBJECT REFCOUNT answer for a value: the representation Redis 7.0 would
// pick for it with its default thresholds. Redis decides when a value is written and never goes
// back to the compact form once a collection outgrew it; here the choice is made from the value as
// it is now (plus the string's `raw` mark), so a collection that grew and then shrank answers its
// compact encoding where Redis would still answer the large one (see docs/known-differences.md).
import type { StoredValue } from './keyspace';

/** Strings up to 44 bytes share their object's allocation (embstr). */
const EMBSTR_MAX_BYTES = 44;
// The thresholds a redis-server 7.0 started without a config file uses (its compiled defaults; the
// sample redis.conf lowers hash-max-listpack-entries to 128).
/** set-max-intset-entries */
const INTSET_MAX_ENTRIES = 512;
/** hash-max-listpack-entries and zset-max-listpack-entries */
const HASH_LISTPACK_MAX_ENTRIES = 512;
const ZSET_LISTPACK_MAX_ENTRIES = 128;
/** hash-max-listpack-value and zset-max-listpack-value */
const LISTPACK_MAX_VALUE_BYTES = 64;
/** Redis shares one object for each integer below this (OBJ_SHARED_INTEGERS), with a refcount that never drops. */
const SHARED_INTEGERS = 10_000;
const SHARED_REFCOUNT = 2_147_483_647;

const INT64_TEXT = /^-?(0|[1-9][0-9]{0,18})$/;
const MAX_INT64 = 9223372036854775807n;
const MIN_INT64 = -9223372036854775808n;

/** Whether Redis reads the text as a 64-bit integer (its string2ll: no sign but `-`, no leading zero, no `-0`). */
export function isInt64Text(text: string): boolean {
  if (text === '-0' || !INT64_TEXT.test(text)) return false;
  const value = BigInt(text);
  return value <= MAX_INT64 && value >= MIN_INT64;
}

function stringEncoding(text: string, raw: boolean | undefined): 'int' | 'embstr' | 'raw' {
  if (raw) return 'raw';
  if (isInt64Text(text)) return 'int';
  return text.length <= EMBSTR_MAX_BYTES ? 'embstr' : 'raw';
}

/** Whether a listpack holds `count` entries within `limit`, every text short enough (looking at no more than `limit` entries). */
function fitsListpack(count: number, limit: number, texts: () => Iterable<string>): boolean {
  if (count > limit) return false;
  for (const text of texts()) if (text.length > LISTPACK_MAX_VALUE_BYTES) return false;
  return true;
}

function* hashTexts(fields: ReadonlyMap<string, string>): Iterable<string> {
  for (const [field, value] of fields) yield* [field, value];
}

export function encodingOf(value: StoredValue): string {
  switch (value.type) {
    case 'string':
      return stringEncoding(value.value, value.raw);
    case 'list':
      // Redis 7.0 keeps every list as a quicklist (7.2 brought listpack lists).
      return 'quicklist';
    case 'set': {
      if (value.members.size > INTSET_MAX_ENTRIES) return 'hashtable';
      for (const member of value.members) if (!isInt64Text(member)) return 'hashtable';
      return 'intset';
    }
    case 'hash':
      return fitsListpack(value.fields.size, HASH_LISTPACK_MAX_ENTRIES, () => hashTexts(value.fields)) ? 'listpack' : 'hashtable';
    case 'zset':
      return fitsListpack(value.zset.size, ZSET_LISTPACK_MAX_ENTRIES, () => value.zset.all().map((entry) => entry.member)) ? 'listpack' : 'skiplist';
    case 'stream':
      return 'stream';
    case 'ReJSON-RL':
      // A module's value is a Redis object of encoding raw whatever the module keeps inside.
      return 'raw';
  }
}

/** OBJECT REFCOUNT: the shared small integers' never-dropping count, else 1 (nothing else shares a value). */
export function refcountOf(value: StoredValue): number {
  if (value.type !== 'string' || stringEncoding(value.value, value.raw) !== 'int') return 1;
  const number = Number(value.value);
  return number >= 0 && number < SHARED_INTEGERS ? SHARED_REFCOUNT : 1;
}
