// What every JSON.* handler shares: RedisJSON's error texts, reading the key's document, parsing
// paths and JSON arguments, running a path with the work budget, bounding what a write copies, and
// one wrapper that turns the parsers' and the budget's exceptions into error replies in the command's slot.
import { bytesToUtf8, utf8ToBytes } from '../../bytes';
import { bulk, error, type ErrorReply, type Reply } from '../../reply';
import type { CommandContext, CommandHandler } from '../handler';
import type { JsonDocumentValue } from '../keyspace';
import { JsonTooLargeError } from './json-format';
import { parsePath, PathSyntaxError, type JsonPath } from './json-path';
import { PathSelector, PathWorkLimitError, WorkBudget, type Match } from './json-path-select';
import { JsonSyntaxError, parseJson } from './json-text';
import { isObject, type JsonValue } from './json-value';

export const PATH_MISSING = error('ERR Path does not exist');
export const NO_SUCH_KEY = error("ERR could not perform this operation on a key that doesn't exist");
export const NEW_AT_ROOT = error('ERR new objects must be created at the root');
export const pathMissingOr = (what: string): ErrorReply => error(`ERR Path does not exist or ${what}`);
export const wrongPathType = (expected: string): ErrorReply => error(`WRONGTYPE wrong type of path value - expected ${expected}`);

/**
 * How deep a stored document may nest. RedisJSON limits each value it parses to 128 levels but not
 * the document a path then places it in; here the document is bounded too, so that walking it
 * (formatting, copying, comparing) always fits the stack.
 */
export const MAX_DOCUMENT_DEPTH = 1024;
const TOO_DEEP = error(`ERR the document would nest deeper than ${MAX_DOCUMENT_DEPTH} levels, this server's limit`);

/** The document at `key`: undefined when absent, WRONGTYPE when the key holds another type. */
export const readDocument = (ctx: CommandContext, key: string): JsonDocumentValue | undefined | ErrorReply => ctx.db.lookupTyped(key, 'ReJSON-RL', ctx.now);

/** The document a command changing values needs: NO_SUCH_KEY when the key is absent. */
export function documentToChange(ctx: CommandContext, key: string): JsonDocumentValue | ErrorReply {
  return readDocument(ctx, key) ?? NO_SUCH_KEY;
}

/** A path argument (a byte string) parsed; a syntax error is thrown and answered by jsonCommand. */
export const pathArgument = (text: string): JsonPath => parsePath(bytesToUtf8(text));

/** A JSON argument parsed; a syntax error is thrown and answered by jsonCommand. */
export const jsonArgument = (text: string): JsonValue => parseJson(bytesToUtf8(text));

/**
 * The running command's work budget: ten times the reply's element bound, for all of its paths
 * together (JSON.GET with a hundred paths gets one budget, not a hundred). Handlers are
 * synchronous (handler.ts), so one command runs at a time and jsonCommand sets this for its run.
 */
let currentBudget: WorkBudget | undefined;

/** Heap bytes the running command's copies are estimated to cost so far (refuseCopies), reset by jsonCommand. */
let copiedBytes = 0;

/** Nodes below `start` (the document's top by default) that the path's segments match, within the command's budget. */
export function selectSegments(ctx: CommandContext, root: JsonValue, segments: JsonPath['segments'], start?: Match): Match[] {
  return new PathSelector(root, currentBudget ?? new WorkBudget(ctx.replyLimits.maxElements * 10)).select(segments, start);
}

/** The matches of `path` in `root`, within the command's budget. */
export const selectPath = (ctx: CommandContext, root: JsonValue, path: JsonPath): Match[] => selectSegments(ctx, root, path.segments);

/** JSON text as a bulk reply (byte string). */
export const textReply = (text: string): Reply => bulk(utf8ToBytes(text));

/** How many levels `value` nests (a scalar is 0) and how many values it holds, itself included; walked without recursion. */
export function shapeOf(value: JsonValue): { readonly depth: number; readonly nodes: number } {
  let deepest = 0;
  let nodes = 0;
  const pending: [JsonValue, number][] = [[value, 0]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    nodes++;
    const [item, depth] = next;
    const children = Array.isArray(item) ? item : isObject(item) ? [...item.values()] : undefined;
    if (children === undefined) continue;
    deepest = Math.max(deepest, depth + 1);
    for (const child of children) pending.push([child, depth + 1]);
  }
  return { depth: deepest, nodes };
}

/** How many levels below the document's top a match sits. */
export function levelOf(match: Match): number {
  let level = 0;
  for (let at = match.parent; at !== undefined; at = at.parent) level++;
  return level;
}

/** TOO_DEEP when placing `value` at `level` would pass MAX_DOCUMENT_DEPTH. */
export function refuseDepth(level: number, value: JsonValue): ErrorReply | undefined {
  return level + shapeOf(value).depth > MAX_DOCUMENT_DEPTH ? TOO_DEEP : undefined;
}

/**
 * V8 heap one copied JSON value may cost, taken at the dearest kind. Measured on Node 20 (2,000
 * copies of an array of 600 `{}`, heap after GC): an empty object (a Map) 192 bytes, an empty
 * array 40, an array's slot 8, an object member 48; strings and numbers are shared by every copy,
 * not copied. Text bytes say nothing of this: the 2-byte `{}` costs 192 (issue 25 finding 4).
 */
export const HEAP_BYTES_PER_COPIED_NODE = 192;

/** The heap estimated for one copy of `values`: every value they hold at the dearest kind's cost. */
export function copyHeapBytes(values: readonly JsonValue[]): number {
  return values.reduce((sum, value) => sum + shapeOf(value).nodes, 0) * HEAP_BYTES_PER_COPIED_NODE;
}

/**
 * An error when writing `bytes` (a heap estimate) at each of `places` would add more than the reply
 * bound, counted over all the writes of one command (JSON.MSET's triples together): a short path can
 * match a million places, and each gets its own copy of the value. Checked before anything is copied.
 */
export function refuseCopies(ctx: CommandContext, places: number, bytes: number): ErrorReply | undefined {
  if (places <= 1) return undefined;
  const limit = ctx.replyLimits.maxBytes;
  if (copiedBytes + places * bytes <= limit) {
    copiedBytes += places * bytes;
    return undefined;
  }
  return error(`ERR the command would write ${places} copies of ${bytes} bytes (heap estimate), more than this server's limit of ${limit} bytes per command (maxReplyBytes)`);
}

/** A JSON.* handler whose parse errors and work limit become error replies. */
export function jsonCommand(handler: CommandHandler): CommandHandler {
  return (args, ctx) => {
    currentBudget = new WorkBudget(ctx.replyLimits.maxElements * 10);
    copiedBytes = 0;
    try {
      return handler(args, ctx);
    } catch (failure) {
      if (failure instanceof PathSyntaxError || failure instanceof JsonSyntaxError) return error(failure.message);
      if (failure instanceof PathWorkLimitError) return error(failure.message);
      if (failure instanceof JsonTooLargeError) return error(`ERR reply too large: the JSON text is longer than this server's limit of ${ctx.replyLimits.maxBytes} bytes (maxReplyBytes)`);
      throw failure;
    } finally {
      currentBudget = undefined;
    }
  };
}
