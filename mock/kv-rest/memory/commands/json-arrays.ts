// The RedisJSON array commands that write: JSON.ARRAPPEND, JSON.ARRINSERT, JSON.ARRPOP and
// JSON.ARRTRIM, with RedisJSON's index rules (ARRINSERT refuses an index outside 0..length, ARRPOP
// and ARRTRIM clamp theirs into the array). Items are moved in one pass per array, never one
// splice per item.
import { wrongArityText } from '../../command-table';
import { error, integer, NIL, type Reply } from '../../reply';
import { isErrorReply, NOT_AN_INTEGER, parseInt64 } from '../arguments';
import type { CommandContext, CommandHandlers } from '../handler';
import { formatJson } from '../json/json-format';
import { copyHeapBytes, documentToChange, jsonArgument, jsonCommand, levelOf, pathArgument, pathMissingOr, refuseDepth, textReply } from '../json/json-command-support';
import { writeMatches } from '../json/json-match-writes';
import type { JsonPath } from '../json/json-path';
import type { Match } from '../json/json-path-select';
import { cloneJson, type JsonValue } from '../json/json-value';

const NOT_AN_ARRAY = pathMissingOr('not an array');
const OUT_OF_BOUNDS = error('ERR index out of bounds');

/** Writes at each array the path matches in the key's document, deepest and highest-indexed first (items move). */
function writeArrays(ctx: CommandContext, key: string, path: JsonPath, write: (items: JsonValue[], match: Match) => Reply, bytesPerPlace = 0): Reply {
  const document = documentToChange(ctx, key);
  if (isErrorReply(document)) return document;
  return writeMatches(ctx, document, path, { fits: Array.isArray, nothingFits: NOT_AN_ARRAY, movesItems: true, bytesPerPlace, write: (match) => write(match.value as JsonValue[], match) });
}

/** Inserts `values` before `index` in place: the tail is lifted off once and put back after them. */
function insertAll(items: JsonValue[], index: number, values: readonly JsonValue[]): void {
  const tail = items.splice(index);
  for (const value of values) items.push(value);
  for (const item of tail) items.push(item);
}

/** Writes `values` (parsed first, as RedisJSON does) into each array the path matches. */
function arrayInsertion(ctx: CommandContext, args: readonly string[], valuesFrom: number, position: (items: readonly JsonValue[]) => number | undefined): Reply {
  const path = pathArgument(args[2]);
  const values = args.slice(valuesFrom).map(jsonArgument);
  let copies = 0;
  return writeArrays(ctx, args[1], path, (items, match) => {
    const at = position(items);
    if (at === undefined) return OUT_OF_BOUNDS;
    for (const value of values) {
      const refused = refuseDepth(levelOf(match) + 1, value);
      if (refused) return refused;
    }
    insertAll(items, at, copies++ === 0 ? values : values.map(cloneJson));
    return integer(items.length);
  }, copyHeapBytes(values));
}

function jsonArrappend(args: readonly string[], ctx: CommandContext): Reply {
  return arrayInsertion(ctx, args, 3, (items) => items.length);
}

function jsonArrinsert(args: readonly string[], ctx: CommandContext): Reply {
  const index = parseInt64(args[3]);
  if (isErrorReply(index)) return NOT_AN_INTEGER;
  return arrayInsertion(ctx, args, 4, (items) => {
    const at = index < 0n ? BigInt(items.length) + index : index;
    return at >= 0n && at <= BigInt(items.length) ? Number(at) : undefined;
  });
}

/** RedisJSON's clamp of an index into an array of `length` items (negative counts from the end). */
function clamp(index: bigint, length: number): number {
  if (index < 0n) return Number(BigInt(length) + index < 0n ? 0n : BigInt(length) + index);
  return length === 0 ? 0 : Number(index < BigInt(length - 1) ? index : BigInt(length - 1));
}

const I64_MAX = 2n ** 63n - 1n;

function jsonArrpop(args: readonly string[], ctx: CommandContext): Reply {
  if (args.length > 4) return error(wrongArityText('json.arrpop'));
  if (args[2]?.toUpperCase() === 'FORMAT') return error('ERR FORMAT argument is not supported on RESP2');
  const path = pathArgument(args[2] ?? '.');
  // Without a path the last item goes; with a path and no usable index, the last one too.
  const parsed = args[3] === undefined ? undefined : parseInt64(args[3]);
  const index = args[2] === undefined ? I64_MAX : parsed === undefined || isErrorReply(parsed) ? -1n : parsed;
  return writeArrays(ctx, args[1], path, (items) => {
    if (items.length === 0) return NIL;
    const at = clamp(index, items.length);
    // Formatted before removing, so an item too large to answer is not lost.
    const reply = textReply(formatJson(items[at], ctx.replyLimits.maxBytes));
    items.splice(at, 1);
    return reply;
  });
}

function jsonArrtrim(args: readonly string[], ctx: CommandContext): Reply {
  const path = pathArgument(args[2]);
  const [start, stop] = [parseInt64(args[3]), parseInt64(args[4])];
  if (isErrorReply(start) || isErrorReply(stop)) return NOT_AN_INTEGER;
  return writeArrays(ctx, args[1], path, (items) => {
    const length = items.length;
    const last = clamp(stop, length);
    const first = start < 0n || start < BigInt(length) ? clamp(start, length) : last + 1;
    const keep = first > last || length === 0 ? 0 : last - first + 1;
    items.copyWithin(0, first, first + keep);
    items.length = keep;
    return integer(keep);
  });
}

export const jsonArrayHandlers: CommandHandlers = {
  'json.arrappend': jsonCommand(jsonArrappend),
  'json.arrinsert': jsonCommand(jsonArrinsert),
  'json.arrpop': jsonCommand(jsonArrpop),
  'json.arrtrim': jsonCommand(jsonArrtrim),
};
