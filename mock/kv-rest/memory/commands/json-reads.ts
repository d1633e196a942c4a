// The RedisJSON commands that read: JSON.GET, JSON.MGET, JSON.TYPE, JSON.STRLEN, JSON.ARRLEN,
// JSON.ARRINDEX, JSON.OBJKEYS, JSON.OBJLEN, JSON.RESP and JSON.DEBUG, with RedisJSON 2.x's reply shapes
// over RESP2: a legacy path answers its first match (or an error when there is none), a JSONPath
// answers one entry per match (nil where the match has the wrong type). The REST API speaks
// RESP2 only, so RESP3's FORMAT option is refused with RedisJSON's own RESP2 error.
import { wrongArityText } from '../../command-table';
import { bytesToUtf8, utf8ToBytes } from '../../bytes';
import { array, bulk, error, integer, NIL, simple, type Reply } from '../../reply';
import { isErrorReply, NOT_AN_INTEGER, parseInt64 } from '../arguments';
import type { CommandContext, CommandHandler, CommandHandlers } from '../handler';
import { formatJson, type Layout } from '../json/json-format';
import { jsonCommand, jsonArgument, pathArgument, pathMissingOr, PATH_MISSING, readDocument, NO_SUCH_KEY, selectPath, textReply, wrongPathType } from '../json/json-command-support';
import { isLegacyPath, PathSyntaxError, type JsonPath } from '../json/json-path';
import { jsonMemory, respOf } from '../json/json-replies';
import { isObject, jsonEquals, typeName, type JsonValue } from '../json/json-value';

const WRONG_ARITY = (name: string) => error(wrongArityText(name));
const RESP2_FORMAT = error('ERR FORMAT argument is not supported on RESP2');
const WRONG_REPLY_FORMAT = error('ERR wrong reply format');
/** JSON.GET reads an argument longer than its longest option word (NOESCAPE) as a path without comparing. */
const LONGEST_GET_OPTION = 'NOESCAPE'.length;

const ROOT = '.';

/** The values of one path: its first match for a legacy path, all of them for a JSONPath. */
function valuesOf(ctx: CommandContext, root: JsonValue, path: JsonPath): JsonValue[] {
  const matches = selectPath(ctx, root, path).map((match) => match.value);
  return path.legacy ? matches.slice(0, 1) : matches;
}

function jsonGet(args: readonly string[], ctx: CommandContext): Reply {
  const layout: { -readonly [K in keyof Layout]: Layout[K] } = {};
  const pathTexts: string[] = [];
  for (let i = 2; i < args.length; i++) {
    const word = args[i].length > LONGEST_GET_OPTION ? '' : args[i].toUpperCase();
    if (word === 'INDENT' || word === 'NEWLINE' || word === 'SPACE') {
      if (++i >= args.length) return WRONG_ARITY('json.get');
      layout[word.toLowerCase() as keyof Layout] = args[i];
    } else if (word === 'FORMAT') {
      if (pathTexts.length === 0) return RESP2_FORMAT;
      if (++i >= args.length) return WRONG_ARITY('json.get');
      if (!['STRING', 'EXPAND1', 'EXPAND'].includes(args[i].toUpperCase())) return WRONG_REPLY_FORMAT;
    } else if (word !== 'NOESCAPE') pathTexts.push(args[i]);
  }
  const document = readDocument(ctx, args[1]);
  if (document === undefined || isErrorReply(document)) return document ?? NIL;
  const maxLength = ctx.replyLimits.maxBytes;
  if (pathTexts.length <= 1) {
    const path = pathArgument(pathTexts[0] ?? ROOT);
    const values = valuesOf(ctx, document.root, path);
    if (!path.legacy) return textReply(formatJson(values, maxLength, layout));
    return values.length === 0 ? PATH_MISSING : textReply(formatJson(values[0], maxLength, layout));
  }
  // Several paths: an object keyed by each path as written, legacy values only when every path is
  // legacy; a path that does not parse is left out, as RedisJSON leaves it out.
  const allLegacy = pathTexts.every((text) => isLegacyPath(bytesToUtf8(text)));
  const byPath = new Map<string, JsonValue>();
  for (const path of pathTexts.flatMap(parsedOrNothing)) {
    const values = valuesOf(ctx, document.root, { ...path, legacy: allLegacy });
    if (allLegacy && values.length === 0) return PATH_MISSING;
    byPath.set(path.text, allLegacy ? values[0] : values);
  }
  return textReply(formatJson(byPath, maxLength, layout));
}

/** The parsed path, or nothing when it does not parse (JSON.GET's several paths, JSON.MGET's path). */
function parsedOrNothing(text: string): JsonPath[] {
  try {
    return [pathArgument(text)];
  } catch (failure) {
    if (failure instanceof PathSyntaxError) return [];
    throw failure;
  }
}

/** JSON.MGET's texts share one reply bound: each is written within what the ones before it left. */
function jsonMget(args: readonly string[], ctx: CommandContext): Reply {
  const [path] = parsedOrNothing(args[args.length - 1]);
  let bytesLeft = ctx.replyLimits.maxBytes;
  return array(
    args.slice(1, -1).map((key) => {
      const document = readDocument(ctx, key);
      if (document === undefined || isErrorReply(document) || path === undefined) return NIL;
      const values = valuesOf(ctx, document.root, path);
      if (path.legacy && values.length === 0) return NIL;
      const text = formatJson(path.legacy ? values[0] : values, bytesLeft);
      bytesLeft -= text.length;
      return textReply(text);
    }),
  );
}

function jsonType(args: readonly string[], ctx: CommandContext): Reply {
  const path = pathArgument(args[2] ?? ROOT);
  const document = readDocument(ctx, args[1]);
  if (document === undefined || isErrorReply(document)) return document ?? NIL;
  const values = valuesOf(ctx, document.root, path);
  if (path.legacy) return values.length === 0 ? NIL : bulk(typeName(values[0]));
  return array(values.map((value) => simple(typeName(value))));
}

/** What a read command measures per match, and what it answers when there is nothing to measure. */
interface MatchRead {
  /** The match's entry, or undefined when the match has the wrong type. */
  readonly measure: (value: JsonValue) => Reply | undefined;
  /** A legacy path's answer when its first match has the wrong type. */
  readonly wrongType: Reply;
  /** A legacy path's answer when nothing matches (PATH_MISSING unless given). */
  readonly legacyNoMatch?: Reply;
}

/**
 * The shape most read commands share: JSONPath answers one entry per match (nil where `measure`
 * does not apply); a legacy path answers its first match's entry.
 */
function perMatch(ctx: CommandContext, root: JsonValue, path: JsonPath, read: MatchRead): Reply {
  const values = valuesOf(ctx, root, path);
  if (!path.legacy) return array(values.map((value) => read.measure(value) ?? NIL));
  if (values.length === 0) return read.legacyNoMatch ?? PATH_MISSING;
  return read.measure(values[0]) ?? read.wrongType;
}

/** A `<command> key [path]` read; an absent key answers `absent` (legacy path first, then JSONPath). */
function matchRead(read: MatchRead, absent: readonly [legacy: Reply, jsonPath: Reply]): CommandHandler {
  return (args, ctx) => {
    const path = pathArgument(args[2] ?? ROOT);
    const document = readDocument(ctx, args[1]);
    if (isErrorReply(document)) return document;
    if (document === undefined) return path.legacy ? absent[0] : absent[1];
    return perMatch(ctx, document.root, path, read);
  };
}

const jsonStrlen = matchRead({ measure: (value) => (typeof value === 'string' ? integer(Buffer.byteLength(value, 'utf8')) : undefined), wrongType: wrongPathType('string') }, [NIL, NO_SUCH_KEY]);
const jsonArrlen = matchRead({ measure: (value) => (Array.isArray(value) ? integer(value.length) : undefined), wrongType: pathMissingOr('not an array') }, [NIL, NO_SUCH_KEY]);
const jsonObjkeys = matchRead(
  { measure: (value) => (isObject(value) ? array([...value.keys()].map((key) => bulk(utf8ToBytes(key)))) : undefined), wrongType: pathMissingOr('not an object'), legacyNoMatch: NIL },
  [NIL, NO_SUCH_KEY],
);
const jsonObjlen = matchRead({ measure: (value) => (isObject(value) ? integer(value.size) : undefined), wrongType: wrongPathType('object'), legacyNoMatch: NIL }, [NIL, pathMissingOr('not an object')]);
const jsonResp = matchRead({ measure: respOf, wrongType: PATH_MISSING }, [NIL, NIL]);

/** RedisJSON's ARRINDEX range: start clamped into the array, stop 0 meaning the end, negatives from the end. */
function indexOf(items: readonly JsonValue[], sought: JsonValue, start: number, stop: number): number {
  const length = items.length;
  if (length === 0) return -1;
  const from = start < 0 ? Math.max(0, length + start) : Math.min(start, length - 1);
  const to = stop === 0 ? length : stop < 0 ? Math.max(0, length + stop) : Math.min(stop, length);
  for (let i = from; i < to; i++) if (jsonEquals(items[i], sought)) return i;
  return -1;
}

function jsonArrindex(args: readonly string[], ctx: CommandContext): Reply {
  if (args.length > 6) return WRONG_ARITY('json.arrindex');
  const path = pathArgument(args[2]);
  const bounds = [args[4] ?? '0', args[5] ?? '0'].map(parseInt64);
  const [start, stop] = bounds;
  if (isErrorReply(start) || isErrorReply(stop)) return NOT_AN_INTEGER;
  const document = readDocument(ctx, args[1]);
  if (isErrorReply(document)) return document;
  const sought = jsonArgument(args[3]);
  if (document === undefined) return PATH_MISSING;
  const find = (value: JsonValue): Reply | undefined => (Array.isArray(value) ? integer(indexOf(value, sought, Number(start), Number(stop))) : undefined);
  return perMatch(ctx, document.root, path, { measure: find, wrongType: wrongPathType('array') });
}

const DEBUG_HELP = array([simple('MEMORY <key> [path] - reports memory usage'), simple('HELP                - this message')]);

/** JSON.DEBUG's two subcommands (the command table answers any other); MEMORY reads past its path are ignored, as in RedisJSON. */
function jsonDebugMemory(args: readonly string[], ctx: CommandContext): Reply {
  const path = pathArgument(args[3] ?? ROOT);
  const document = readDocument(ctx, args[2]);
  if (isErrorReply(document)) return document;
  if (document === undefined) return path.legacy ? integer(0) : array([]);
  return perMatch(ctx, document.root, path, { measure: (value) => integer(jsonMemory(value)), wrongType: PATH_MISSING });
}

export const jsonReadHandlers: CommandHandlers = {
  'json.get': jsonCommand(jsonGet),
  'json.mget': jsonCommand(jsonMget),
  'json.type': jsonCommand(jsonType),
  'json.strlen': jsonCommand(jsonStrlen),
  'json.arrlen': jsonCommand(jsonArrlen),
  'json.objkeys': jsonCommand(jsonObjkeys),
  'json.objlen': jsonCommand(jsonObjlen),
  'json.arrindex': jsonCommand(jsonArrindex),
  'json.resp': jsonCommand(jsonResp),
  'json.debug|memory': jsonCommand(jsonDebugMemory),
  'json.debug|help': () => DEBUG_HELP,
};
