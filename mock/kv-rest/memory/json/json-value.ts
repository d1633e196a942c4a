// The JSON values a `ReJSON-RL` key holds, as RedisJSON keeps them: integers apart from floats (an
// integer is a signed or unsigned 64-bit number, exact as a bigint; `7.0` stays a float and prints
// `7.0`), and object members in insertion order (a Map, since a plain object would move keys that
// look like array indices to the front).

export type JsonNumber = { readonly kind: 'integer'; readonly value: bigint } | { readonly kind: 'float'; readonly value: number };
export type JsonObject = Map<string, JsonValue>;
export type JsonValue = null | boolean | string | JsonNumber | JsonValue[] | JsonObject;

export const I64_MIN = -(2n ** 63n);
export const I64_MAX = 2n ** 63n - 1n;
export const U64_MAX = 2n ** 64n - 1n;

export const isObject = (value: JsonValue): value is JsonObject => value instanceof Map;
export const isNumber = (value: JsonValue): value is JsonNumber => typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Map);

export const integerValue = (value: bigint): JsonNumber => ({ kind: 'integer', value });
export const floatValue = (value: number): JsonNumber => ({ kind: 'float', value });

/** An integer RedisJSON treats as such in arithmetic: one that fits a signed 64-bit number. */
export const isSignedInteger = (value: JsonNumber): boolean => value.kind === 'integer' && value.value >= I64_MIN && value.value <= I64_MAX;

/** The number as a double, for comparisons and float arithmetic. */
export const toDouble = (value: JsonNumber): number => (value.kind === 'float' ? value.value : Number(value.value));

/** JSON.TYPE's names; an unsigned integer past the signed range is still `integer`, as RedisJSON says. */
export function typeName(value: JsonValue): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'string') return 'string';
  if (Array.isArray(value)) return 'array';
  if (isObject(value)) return 'object';
  return value.kind === 'integer' ? 'integer' : 'number';
}

/**
 * RedisJSON's equality (ARRINDEX, filters): same type and same value; integers and floats never
 * equal each other, and objects compare member by member whatever their order. Iterative, so a
 * deep document costs no stack. `spend` is told how many member pairs each level adds before they
 * are compared (filters pay them from the command's work budget).
 */
export function jsonEquals(left: JsonValue, right: JsonValue, spend: (count: number) => void = () => {}): boolean {
  const pending: [JsonValue, JsonValue][] = [[left, right]];
  for (let pair = pending.pop(); pair !== undefined; pair = pending.pop()) {
    const [a, b] = pair;
    if (typeName(a) !== typeName(b)) return false;
    if (Array.isArray(a) && Array.isArray(b)) {
      if (a.length !== b.length) return false;
      spend(a.length);
      for (let i = 0; i < a.length; i++) pending.push([a[i], b[i]]);
    } else if (isObject(a) && isObject(b)) {
      if (a.size !== b.size) return false;
      spend(a.size);
      for (const [key, member] of a) {
        if (!b.has(key)) return false;
        pending.push([member, b.get(key) as JsonValue]);
      }
    } else if (isNumber(a) && isNumber(b)) {
      if (a.kind !== b.kind || a.value !== b.value) return false;
    } else if (a !== b) return false;
  }
  return true;
}

/** A deep copy (COPY, and values inserted at several places at once). */
export function cloneJson(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(cloneJson);
  if (isObject(value)) return new Map([...value].map(([key, member]) => [key, cloneJson(member)]));
  return value;
}
