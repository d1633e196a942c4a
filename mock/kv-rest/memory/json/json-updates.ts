// Writing at a path's matches so that no write moves what a later one addresses: each place once;
// where items move (insert, pop, trim), deeper places and higher array indexes first, as RedisJSON
// orders them; for JSON.SET and JSON.DEL, nothing below a place that is itself replaced or deleted.
// Deleting many items of one array compacts it once, so `JSON.DEL k $[*]` on a long array stays linear.
import type { JsonDocumentValue } from '../keyspace';
import { routeOf, type Match } from './json-path-select';
import { isObject, type JsonValue } from './json-value';

/** Whether the match still sits where it was found (an earlier write may have replaced a parent). */
export function isAttached(document: JsonDocumentValue, match: Match): boolean {
  for (let at: Match | undefined = match; at !== undefined; at = at.parent) {
    const { container, key, value } = at;
    if (container === undefined) return document.root === value;
    const current = Array.isArray(container) ? container[key as number] : (container as Map<string, JsonValue>).get(key as string);
    if (current !== value) return false;
  }
  return true;
}

export function replaceAt(document: JsonDocumentValue, match: Match, value: JsonValue): void {
  const { container, key } = match;
  if (container === undefined) document.root = value;
  else if (Array.isArray(container)) container[key as number] = value;
  else container.set(key as string, value);
}

/** The matches without repeats of one place (`$[0,0]`, or `..` reaching a node twice). */
function distinctPlaces(matches: readonly Match[]): Match[] {
  const seen = new Map<object, Set<string | number>>();
  return matches.filter((match) => {
    const holder: object = match.container ?? seen;
    const keys = seen.get(holder) ?? new Set<string | number>();
    seen.set(holder, keys);
    if (keys.has(match.key)) return false;
    keys.add(match.key);
    return true;
  });
}

/** RedisJSON's mutation order of two routes: a route before its own prefix, names ascending before indexes, indexes descending. */
function compareRoutes(left: readonly (string | number)[], right: readonly (string | number)[]): number {
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const a = left[i];
    const b = right[i];
    if (a === b) continue;
    if (typeof a === 'number' && typeof b === 'number') return b - a;
    if (typeof a === 'number') return 1;
    if (typeof b === 'number') return -1;
    return a < b ? -1 : 1;
  }
  return right.length - left.length;
}

/** Each place once, in RedisJSON's mutation order, with its original position (replies keep the match order). */
export function inMutationOrder(matches: readonly Match[]): { match: Match; position: number }[] {
  const positions = new Map(matches.map((match, position) => [match, position]));
  const routes = new Map(distinctPlaces(matches).map((match) => [match, routeOf(match)]));
  return [...routes.keys()]
    .sort((a, b) => compareRoutes(routes.get(a) ?? [], routes.get(b) ?? []))
    .map((match) => ({ match, position: positions.get(match) ?? 0 }));
}

/**
 * The places none of whose ancestors is also a place, each once (JSON.SET and JSON.DEL): writes at
 * these cannot disturb one another, since replacing moves nothing and deletePlaces compacts each
 * array once, so they need no order.
 */
export function outermostPlaces(matches: readonly Match[]): Match[] {
  // Only a match holding an array or object can be another's ancestor, and each array or object
  // sits at one place only (values written at several places are copies), so identity finds it.
  const containers = new Set<JsonValue>();
  for (const match of matches) if (Array.isArray(match.value) || isObject(match.value)) containers.add(match.value);
  const outermost =
    containers.size === 0
      ? matches
      : matches.filter((match) => {
          for (let at = match.parent; at !== undefined; at = at.parent) if (containers.has(at.value)) return false;
          return true;
        });
  return distinctPlaces(outermost);
}

/** Deletes the places (outermost ones, so none is inside another); returns how many. */
export function deletePlaces(places: readonly Match[]): number {
  const arrayDeletions = new Map<JsonValue[], Uint8Array>();
  for (const { container, key } of places) {
    if (isObject(container as JsonValue)) (container as Map<string, JsonValue>).delete(key as string);
    else if (Array.isArray(container)) {
      const marks = arrayDeletions.get(container) ?? new Uint8Array(container.length);
      arrayDeletions.set(container, marks);
      marks[key as number] = 1;
    }
  }
  for (const [items, marks] of arrayDeletions) {
    let kept = 0;
    for (let i = 0; i < items.length; i++) if (marks[i] === 0) items[kept++] = items[i];
    items.length = kept;
  }
  return places.length;
}
