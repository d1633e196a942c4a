// JSON.SET, JSON.MSET and JSON.MERGE: where a value goes (the places a path matches, or a new
// member named by a static path's last name) and how it lands there, as RedisJSON 2.x decides:
// NX only adds, XX only replaces, a key is created only at the root, MERGE applies RFC 7396 (a
// null member deletes, an object merges member by member, anything else replaces).
import { wrongArityText } from '../../command-table';
import { error, NIL, OK, type ErrorReply, type Reply } from '../../reply';
import { isErrorReply, SYNTAX_ERROR } from '../arguments';
import type { CommandContext, CommandHandlers } from '../handler';
import type { JsonDocumentValue } from '../keyspace';
import { copyHeapBytes, jsonArgument, jsonCommand, levelOf, NEW_AT_ROOT, pathArgument, readDocument, refuseCopies, refuseDepth, selectPath, selectSegments } from '../json/json-command-support';
import { isStaticPath, type JsonPath } from '../json/json-path';
import type { Match } from '../json/json-path-select';
import { isAttached, outermostPlaces, replaceAt } from '../json/json-updates';
import { cloneJson, isObject, type JsonValue } from '../json/json-value';

type Mode = 'set' | 'nx' | 'xx' | 'merge';

/** Where a value goes: places to overwrite (or merge into), or parents to add a member `name` to. */
type Places = { readonly replace: readonly Match[] } | { readonly add: readonly Match[]; readonly name: string };

const NOWHERE: Places = { replace: [] };

/** RedisJSON's find_paths: the existing places unless NX, else the new member a static path names. */
function placesFor(ctx: CommandContext, document: JsonDocumentValue, path: JsonPath, mode: Mode): Places | ErrorReply {
  if (mode !== 'nx') {
    const matches = selectPath(ctx, document.root, path);
    const places = mode === 'merge' ? matches : outermostPlaces(matches);
    if (places.length > 0) return { replace: places };
    if (mode === 'xx') return NOWHERE;
  }
  if (!isStaticPath(path)) return error('Err wrong static path');
  const last = path.segments[path.segments.length - 1].selector;
  if (last.kind === 'names') {
    const parents = selectSegments(ctx, document.root, path.segments.slice(0, -1));
    return { add: parents, name: last.names[0] };
  }
  // The path ends in an index: an existing item is not added to (NX), a missing one is out of range.
  return selectPath(ctx, document.root, path).length === 0 ? error('ERR array index out of range') : NOWHERE;
}

/** Lands `value` at the places (a copy at each but the first; a merge copies at most the value at each); true when anything changed. */
function land(ctx: CommandContext, document: JsonDocumentValue, places: Places, value: JsonValue, merge: boolean): boolean | ErrorReply {
  const targets = 'replace' in places ? places.replace : places.add.filter((parent) => isObject(parent.value) && !parent.value.has(places.name));
  const tooMany = refuseCopies(ctx, targets.length, copyHeapBytes([value]));
  if (tooMany) return tooMany;
  for (const target of targets) {
    const refused = refuseDepth(levelOf(target) + ('add' in places ? 1 : 0), value);
    if (refused) return refused;
  }
  let copies = 0;
  const next = (): JsonValue => (copies++ === 0 ? value : cloneJson(value));
  for (const target of targets) {
    if ('add' in places) (target.value as Map<string, JsonValue>).set(places.name, next());
    else if (isAttached(document, target)) replaceAt(document, target, merge ? merged(target.value, value) : next());
  }
  return targets.length > 0;
}

/** RFC 7396 as RedisJSON applies it: `target` is changed in place where it is an object. */
function merged(target: JsonValue, patch: JsonValue): JsonValue {
  if (!isObject(patch)) return cloneJson(patch);
  const base = isObject(target) ? target : new Map<string, JsonValue>();
  for (const [name, member] of patch) {
    if (member === null) base.delete(name);
    else base.set(name, merged(base.get(name) ?? null, member));
  }
  return base;
}

const isRoot = (path: JsonPath): boolean => path.segments.length === 0;

/** Writes one key's value (the JSON text `text`) at one path; OK, nil when nothing changed, or an error. */
function setAt(ctx: CommandContext, key: string, path: JsonPath, text: string, mode: Mode): Reply {
  const value = jsonArgument(text);
  const document = readDocument(ctx, key);
  if (isErrorReply(document)) return document;
  if (document === undefined) {
    if (mode === 'xx') return NIL;
    if (!isRoot(path)) return NEW_AT_ROOT;
    ctx.db.set(key, { type: 'ReJSON-RL', root: value });
    return OK;
  }
  if (isRoot(path)) {
    if (mode === 'nx') return NIL;
    // The document is changed, not the key: its expiry stays, as RedisJSON replaces the value in place.
    document.root = mode === 'merge' ? merged(document.root, value) : value;
    return OK;
  }
  const places = placesFor(ctx, document, path, mode);
  if (isErrorReply(places)) return places;
  const changed = land(ctx, document, places, value, mode === 'merge');
  if (isErrorReply(changed)) return changed;
  return changed ? OK : NIL;
}

function jsonSet(args: readonly string[], ctx: CommandContext): Reply {
  let mode: Mode = 'set';
  for (let i = 4; i < args.length; i++) {
    const word = args[i].toUpperCase();
    if ((word === 'NX' || word === 'XX') && mode === 'set') mode = word === 'NX' ? 'nx' : 'xx';
    else if (word === 'FORMAT') {
      const format = args[++i]?.toUpperCase();
      if (format === undefined) return error(wrongArityText('json.set'));
      if (format !== 'JSON' && format !== 'STRING') return error('ERR wrong format');
    } else return SYNTAX_ERROR;
  }
  const path = pathArgument(args[2]);
  const document = readDocument(ctx, args[1]);
  if (isErrorReply(document)) return document;
  return setAt(ctx, args[1], path, args[3], mode);
}

function jsonMerge(args: readonly string[], ctx: CommandContext): Reply {
  if (args.length > 4) return SYNTAX_ERROR;
  const path = pathArgument(args[2]);
  const document = readDocument(ctx, args[1]);
  if (isErrorReply(document)) return document;
  return setAt(ctx, args[1], path, args[3], 'merge');
}

/** JSON.MSET checks every triple (key type, path, value) before writing any, then writes them in order. */
function jsonMset(args: readonly string[], ctx: CommandContext): Reply {
  if ((args.length - 1) % 3 !== 0) return error(wrongArityText('json.mset'));
  const triples: { key: string; path: JsonPath; text: string }[] = [];
  for (let i = 1; i < args.length; i += 3) {
    const key = args[i];
    const document = readDocument(ctx, key);
    if (isErrorReply(document)) return document;
    const path = pathArgument(args[i + 1]);
    if (!isRoot(path)) {
      if (document === undefined) return NEW_AT_ROOT;
      const places = placesFor(ctx, document, path, 'set');
      if (isErrorReply(places)) return places;
    }
    jsonArgument(args[i + 2]); // parsed now so that a bad value anywhere writes nothing
    triples.push({ key, path, text: args[i + 2] });
  }
  for (const { key, path, text } of triples) {
    const written = setAt(ctx, key, path, text, 'set');
    if (written.kind === 'error') return written;
  }
  return OK;
}

export const jsonSetHandlers: CommandHandlers = {
  'json.set': jsonCommand(jsonSet),
  'json.merge': jsonCommand(jsonMerge),
  'json.mset': jsonCommand(jsonMset),
};
