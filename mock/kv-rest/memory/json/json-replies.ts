// Two views of a JSON value that are replies rather than text: JSON.RESP's (RedisJSON's RESP form:
// nil, `true`/`false` as simple strings, integers, doubles as Redis writes them, bulk strings,
// arrays led by `[` and objects led by `{` then key, value ...) and JSON.DEBUG MEMORY's estimate,
// RedisJSON's own formula for its compact value representation.
import { utf8ToBytes } from '../../bytes';
import { array, bulk, integer, NIL, simple, type Reply } from '../../reply';
import { formatDouble } from '../format-double';
import { isObject, type JsonValue } from './json-value';

export function respOf(value: JsonValue): Reply {
  if (value === null) return NIL;
  if (typeof value === 'boolean') return simple(value ? 'true' : 'false');
  if (typeof value === 'string') return bulk(utf8ToBytes(value));
  if (Array.isArray(value)) return array([simple('['), ...value.map(respOf)]);
  if (isObject(value)) {
    const items: Reply[] = [simple('{')];
    for (const [key, member] of value) items.push(bulk(utf8ToBytes(key)), respOf(member));
    return array(items);
  }
  return value.kind === 'integer' ? integer(value.value) : bulk(formatDouble(value.value));
}

/** Bytes of one machine word, the unit of RedisJSON's estimate. */
const WORD = 8;

function numberMemory(value: Extract<JsonValue, { kind: string }>): number {
  if (value.kind === 'float') return 16;
  if (value.value >= -128n && value.value < 384n) return 0;
  if (value.value >= -(2n ** 23n) && value.value < 2n ** 23n) return 4;
  return 16;
}

function memoryBelow(value: JsonValue): number {
  if (value === null || typeof value === 'boolean') return 0;
  if (typeof value === 'string') return Buffer.byteLength(value, 'utf8');
  if (Array.isArray(value)) return value.length === 0 ? 0 : value.reduce((sum: number, item) => sum + memoryBelow(item), 0) + (value.length + 2) * WORD;
  if (isObject(value)) {
    if (value.size === 0) return 0;
    let sum = (value.size * 3 + 2) * WORD;
    for (const [key, member] of value) sum += Buffer.byteLength(key, 'utf8') + memoryBelow(member);
    return sum;
  }
  return numberMemory(value);
}

/** JSON.DEBUG MEMORY: the value's estimated bytes, its own word included. */
export const jsonMemory = (value: JsonValue): number => memoryBelow(value) + WORD;
