// string.find, string.match, string.gmatch and string.gsub on the stoppable matcher of
// lua-patterns.ts, with the library's own arguments, results and error texts. gsub builds its
// result under the script string bound (script-string-limit.ts), and plain finds search in linear
// time (Buffer's indexOf takes seconds on a 4 MiB subject and a 20 KB needle that almost matches).
import { lauxlib, lua, type LuaCFunction, type LuaState, type LuaString, to_luastring } from './lua51-numbers';
import { CAPTURE_POSITION, CAPTURE_UNFINISHED, type MatchHost, PatternMatcher } from './lua-patterns';
import { SCRIPT_STRING_LIMIT_BYTES } from './script-string-limit';

const SPECIALS = new Set([...'^$*+?.([%-'].map((char) => char.charCodeAt(0)));
const CARET = 0x5e;
const ESCAPE = 0x25;
const TOO_MANY_CAPTURES = to_luastring('too many captures');

export type ClockCheck = () => void;

function host(L: LuaState, checkTime: ClockCheck): MatchHost {
  return { fail: (message) => lauxlib.luaL_error(L, to_luastring(message.replace(/%/g, '%%'))), checkTime };
}

/** Lua's relative string position: negative counts from the end. */
function relativePosition(position: number, length: number): number {
  if (position >= 0) return position;
  return -position > length ? 0 : length + position + 1;
}

/** Where `needle` first occurs in `subject` from `from` on, or -1: Knuth-Morris-Pratt, linear in both. */
function plainFind(subject: Uint8Array, needle: Uint8Array, from: number): number {
  if (needle.length === 0) return from;
  const border = new Int32Array(needle.length);
  for (let index = 1, matched = 0; index < needle.length; index++) {
    while (matched > 0 && needle[index] !== needle[matched]) matched = border[matched - 1];
    if (needle[index] === needle[matched]) matched++;
    border[index] = matched;
  }
  for (let index = from, matched = 0; index < subject.length; index++) {
    while (matched > 0 && subject[index] !== needle[matched]) matched = border[matched - 1];
    if (subject[index] === needle[matched]) matched++;
    if (matched === needle.length) return index - needle.length + 1;
  }
  return -1;
}

function pushCapture(L: LuaState, matcher: PatternMatcher, index: number, start: number, end: number, fail: MatchHost['fail']): void {
  if (index >= matcher.level) {
    if (index !== 0) fail(`invalid capture index %${index + 1}`);
    lua.lua_pushstring(L, matcher.subject.subarray(start, end));
    return;
  }
  const length = matcher.captureLength[index];
  const captureStart = matcher.captureStart[index];
  if (length === CAPTURE_UNFINISHED) fail('unfinished capture');
  if (length === CAPTURE_POSITION) lua.lua_pushinteger(L, captureStart + 1);
  else lua.lua_pushstring(L, matcher.subject.subarray(captureStart, captureStart + length));
}

/** Pushes the captures (or the whole match when there are none and `start` is not -1); answers how many. */
function pushCaptures(L: LuaState, matcher: PatternMatcher, start: number, end: number, fail: MatchHost['fail']): number {
  const count = matcher.level === 0 && start !== -1 ? 1 : matcher.level;
  lauxlib.luaL_checkstack(L, count, TOO_MANY_CAPTURES);
  for (let index = 0; index < count; index++) pushCapture(L, matcher, index, start, end, fail);
  return count;
}

function findOrMatch(L: LuaState, checkTime: ClockCheck, find: boolean): number {
  const subject = lauxlib.luaL_checklstring(L, 1);
  const pattern = lauxlib.luaL_checklstring(L, 2);
  const init = Math.max(1, relativePosition(lauxlib.luaL_optinteger(L, 3, 1), subject.length));
  if (init > subject.length + 1) {
    lua.lua_pushnil(L);
    return 1;
  }
  if (find && (lua.lua_toboolean(L, 4) || !pattern.some((byte) => SPECIALS.has(byte)))) {
    const at = plainFind(subject, pattern, init - 1);
    if (at === -1) {
      lua.lua_pushnil(L);
      return 1;
    }
    lua.lua_pushinteger(L, at + 1);
    lua.lua_pushinteger(L, at + pattern.length);
    return 2;
  }
  const anchored = pattern[0] === CARET;
  const matchHost = host(L, checkTime);
  const matcher = new PatternMatcher(subject, anchored ? pattern.subarray(1) : pattern, matchHost);
  let start = init - 1;
  do {
    matcher.reset();
    const end = matcher.match(start, 0);
    if (end !== -1) {
      if (!find) return pushCaptures(L, matcher, start, end, matchHost.fail);
      lua.lua_pushinteger(L, start + 1);
      lua.lua_pushinteger(L, end);
      return pushCaptures(L, matcher, -1, 0, matchHost.fail) + 2;
    }
  } while (start++ < subject.length && !anchored);
  lua.lua_pushnil(L);
  return 1;
}

function gmatch(L: LuaState, checkTime: ClockCheck): number {
  const subject = lauxlib.luaL_checklstring(L, 1);
  const pattern = lauxlib.luaL_checklstring(L, 2);
  let position = 0;
  let lastMatch = -1;
  // Scripts run on one Lua thread (no coroutines), so the iterator is always called with this L.
  const matchHost = host(L, checkTime);
  const matcher = new PatternMatcher(subject, pattern, matchHost);
  lua.lua_pushjsfunction(L, () => {
    for (let start = position; start <= subject.length; start++) {
      matcher.reset();
      const end = matcher.match(start, 0);
      if (end !== -1 && end !== lastMatch) {
        position = lastMatch = end;
        return pushCaptures(L, matcher, start, end, matchHost.fail);
      }
    }
    return 0;
  });
  return 1;
}

/** gsub's result: pieces of bytes, refused past the script string bound. */
class Output {
  private readonly pieces: Uint8Array[] = [];
  private length = 0;

  constructor(private readonly fail: MatchHost['fail']) {}

  add(bytes: Uint8Array): void {
    this.length += bytes.length;
    if (this.length > SCRIPT_STRING_LIMIT_BYTES) this.fail(`string length overflow: a script may build strings of at most ${SCRIPT_STRING_LIMIT_BYTES} bytes`);
    this.pieces.push(bytes);
  }

  bytes(): Uint8Array {
    return Buffer.concat(this.pieces, this.length);
  }
}

/** The replacement of one match: a string with %0-%9 and %%, a table lookup or a function call. */
function addReplacement(L: LuaState, matcher: PatternMatcher, start: number, end: number, output: Output, matchHost: MatchHost): void {
  const replacementType = lua.lua_type(L, 3);
  if (replacementType === lua.LUA_TFUNCTION) {
    lua.lua_pushvalue(L, 3);
    lua.lua_call(L, pushCaptures(L, matcher, start, end, matchHost.fail), 1);
  } else if (replacementType === lua.LUA_TTABLE) {
    pushCapture(L, matcher, 0, start, end, matchHost.fail);
    lua.lua_gettable(L, 3);
  } else {
    addTemplate(L, matcher, start, end, output, matchHost);
    return;
  }
  if (!lua.lua_toboolean(L, -1)) output.add(matcher.subject.subarray(start, end));
  else if (!lua.lua_isstring(L, -1)) matchHost.fail(`invalid replacement value (a ${Buffer.from(lauxlib.luaL_typename(L, -1)).toString('latin1')})`);
  else output.add(lua.lua_tolstring(L, -1)!);
  lua.lua_pop(L, 1);
}

function addTemplate(L: LuaState, matcher: PatternMatcher, start: number, end: number, output: Output, matchHost: MatchHost): void {
  const template: LuaString = lua.lua_tolstring(L, 3)!;
  let literalFrom = 0;
  for (let index = 0; index < template.length; index++) {
    if (template[index] !== ESCAPE) continue;
    output.add(template.subarray(literalFrom, index));
    const next = template[++index];
    literalFrom = index + 1;
    if (next === 0x30) {
      output.add(matcher.subject.subarray(start, end));
    } else if (next >= 0x31 && next <= 0x39) {
      pushCapture(L, matcher, next - 0x31, start, end, matchHost.fail);
      output.add(lauxlib.luaL_tolstring(L, -1));
      lua.lua_pop(L, 2);
    } else if (next === ESCAPE) {
      output.add(template.subarray(index, index + 1));
    } else {
      matchHost.fail("invalid use of '%' in replacement string");
    }
  }
  output.add(template.subarray(literalFrom));
}

function gsub(L: LuaState, checkTime: ClockCheck): number {
  const subject = lauxlib.luaL_checklstring(L, 1);
  const pattern = lauxlib.luaL_checklstring(L, 2);
  const replacementType = lua.lua_type(L, 3);
  const maxReplacements = lauxlib.luaL_optinteger(L, 4, subject.length + 1);
  lauxlib.luaL_argcheck(
    L,
    replacementType === lua.LUA_TNUMBER || replacementType === lua.LUA_TSTRING || replacementType === lua.LUA_TFUNCTION || replacementType === lua.LUA_TTABLE,
    3,
    to_luastring('string/function/table expected'),
  );
  const anchored = pattern[0] === CARET;
  const matchHost = host(L, checkTime);
  const matcher = new PatternMatcher(subject, anchored ? pattern.subarray(1) : pattern, matchHost);
  const output = new Output(matchHost.fail);
  let position = 0;
  let copiedUpTo = 0;
  let lastMatch = -1;
  let replacements = 0;
  while (replacements < maxReplacements) {
    matcher.reset();
    const end = matcher.match(position, 0);
    if (end !== -1 && end !== lastMatch) {
      replacements++;
      output.add(subject.subarray(copiedUpTo, position));
      addReplacement(L, matcher, position, end, output, matchHost);
      position = copiedUpTo = lastMatch = end;
    } else if (position < subject.length) {
      position++;
    } else {
      break;
    }
    if (anchored) break;
  }
  output.add(subject.subarray(copiedUpTo));
  lua.lua_pushstring(L, output.bytes());
  lua.lua_pushinteger(L, replacements);
  return 2;
}

/** The four functions, each checking the clock through `checkTime` while it matches. */
export function stringMatchingFunctions(checkTime: ClockCheck): Record<'find' | 'match' | 'gmatch' | 'gsub', LuaCFunction> {
  return {
    find: (L) => findOrMatch(L, checkTime, true),
    match: (L) => findOrMatch(L, checkTime, false),
    gmatch: (L) => gmatch(L, checkTime),
    gsub: (L) => gsub(L, checkTime),
  };
}
