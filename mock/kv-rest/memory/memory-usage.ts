// MEMORY USAGE's answer: an estimate of the bytes Redis 7.0 (with jemalloc) would use for a key and
// its value, since the memory engine's own JavaScript objects say nothing useful about a Redis
// deployment. Strings follow Redis's accounting exactly (key, dict entry, object header, allocator
// size classes); collections are modelled on the encoding Redis would pick (listpack, intset,
// hashtable, skiplist, quicklist) and, like Redis, sample `samples` elements and scale up, so the
// figure is of the right size, not Redis's exact number.
import type { StoredValue } from './keyspace';
import { encodingOf, isInt64Text } from './object-encoding';
import { jsonMemory } from './json/json-replies';

const OBJECT_HEADER = 16;
const DICT_ENTRY = 24;
const DICT = 56;
const QUICKLIST = 40;
const QUICKLIST_NODE = 40;
/** list-max-listpack-size -2: a quicklist node holds up to 8 KiB of listpack. */
const QUICKLIST_NODE_BYTES = 8192;
const SKIPLIST_NODE = 48;
const LISTPACK_OVERHEAD = 7;
const STREAM = 80;
const STREAM_NODE = 64;

/** jemalloc's size class for an allocation of `bytes`: 8, multiples of 16 up to 128, then four classes per doubling. */
export function allocatorSize(bytes: number): number {
  if (bytes <= 8) return 8;
  if (bytes <= 128) return Math.ceil(bytes / 16) * 16;
  const step = 2 ** (Math.floor(Math.log2(bytes - 1)) - 2);
  return Math.ceil(bytes / step) * step;
}

/** An sds string's allocation: its header grows with the length it must hold. */
function sdsSize(length: number): number {
  const header = length < 32 ? 1 : length < 256 ? 3 : length < 65_536 ? 5 : 9;
  return allocatorSize(header + length + 1);
}

/** A raw string's sds: never the 1-byte header Redis keeps for short keys. */
function rawSdsSize(length: number): number {
  return sdsSize(Math.max(length, 32));
}

/** Bytes of one listpack entry holding `text`. */
function listpackEntry(text: string): number {
  const data = isInt64Text(text) ? Math.min(9, 1 + Math.ceil(text.length / 2)) : text.length + (text.length < 64 ? 1 : text.length < 4096 ? 2 : 5);
  return data + (data < 128 ? 1 : data < 16_384 ? 2 : 3);
}

/** The average of `cost` over up to `samples` of `items` (all when 0), times their count. */
function sampled<T>(items: Iterable<T>, count: number, samples: number, cost: (item: T) => number): number {
  let total = 0;
  let seen = 0;
  for (const item of items) {
    if (samples > 0 && seen >= samples) break;
    total += cost(item);
    seen++;
  }
  return seen === 0 ? 0 : Math.round((total / seen) * count);
}

const buckets = (count: number): number => 8 * 2 ** Math.ceil(Math.log2(Math.max(4, count)));

function stringUsage(value: StoredValue & { type: 'string' }): number {
  const encoding = encodingOf(value);
  if (encoding === 'int') return OBJECT_HEADER;
  if (encoding === 'embstr') return allocatorSize(OBJECT_HEADER + 3 + value.value.length + 1);
  return OBJECT_HEADER + rawSdsSize(value.value.length);
}

function valueUsage(value: StoredValue, samples: number): number {
  switch (value.type) {
    case 'string':
      return stringUsage(value);
    case 'list': {
      const bytes = sampled(value.items, value.items.length, samples, listpackEntry);
      const nodes = Math.max(1, Math.ceil(bytes / QUICKLIST_NODE_BYTES));
      return OBJECT_HEADER + QUICKLIST + nodes * (QUICKLIST_NODE + allocatorSize(Math.ceil(bytes / nodes) + LISTPACK_OVERHEAD));
    }
    case 'set':
      if (encodingOf(value) === 'intset') {
        const width = [...value.members].some((member) => Math.abs(Number(member)) > 2 ** 31) ? 8 : [...value.members].some((member) => Math.abs(Number(member)) > 2 ** 15) ? 4 : 2;
        return OBJECT_HEADER + allocatorSize(8 + width * value.members.size);
      }
      return OBJECT_HEADER + DICT + buckets(value.members.size) + sampled(value.members, value.members.size, samples, (member) => DICT_ENTRY + sdsSize(member.length));
    case 'hash':
      if (encodingOf(value) === 'listpack') return OBJECT_HEADER + allocatorSize(LISTPACK_OVERHEAD + sampled(value.fields, value.fields.size, 0, ([field, text]) => listpackEntry(field) + listpackEntry(text)));
      return OBJECT_HEADER + DICT + buckets(value.fields.size) + sampled(value.fields, value.fields.size, samples, ([field, text]) => DICT_ENTRY + sdsSize(field.length) + sdsSize(text.length));
    case 'zset': {
      const members = value.zset.all();
      if (encodingOf(value) === 'listpack') return OBJECT_HEADER + allocatorSize(LISTPACK_OVERHEAD + sampled(members, members.length, 0, (entry) => listpackEntry(entry.member) + listpackEntry(String(entry.score))));
      return OBJECT_HEADER + 16 + DICT + buckets(members.length) + sampled(members, members.length, samples, (entry) => DICT_ENTRY + SKIPLIST_NODE + sdsSize(entry.member.length));
    }
    case 'stream': {
      const nodes = Math.max(1, value.stream.nodeCount);
      return OBJECT_HEADER + STREAM + nodes * (STREAM_NODE + QUICKLIST_NODE_BYTES / 2);
    }
    case 'ReJSON-RL':
      // Redis asks the module; RedisJSON answers what JSON.DEBUG MEMORY reports for the root.
      return OBJECT_HEADER + jsonMemory(value.root);
  }
}

/** Estimated bytes of `key` and its value, sampling `samples` elements of a collection (0: all). */
export function memoryUsage(key: string, value: StoredValue, samples: number): number {
  return sdsSize(key.length) + DICT_ENTRY + valueUsage(value, samples);
}
