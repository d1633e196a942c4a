// The `cjson` library Redis gives scripts: encode/decode between Lua values and JSON text, with
// lua-cjson's rules and error texts where scripts can see them: numbers written with `%.14g`,
// strings keeping their bytes, a table with keys 1..n only an array (refused when excessively
// sparse), nesting limited to 1000 levels both ways. Work is linear in the value's size, the text
// is built under the script string bound, and only these errors become Lua errors: any other JS
// exception is a failure of the engine (see lua-sandbox.ts).
import { firstTooDeep } from '../../../json-nesting';
import { lauxlib, lua, type LuaState } from './lua51-numbers';
import { formatG } from '../format-double';
import { bytesToLua, luaToBytes } from './lua-values';
import { SCRIPT_STRING_LIMIT_BYTES } from './script-string-limit';

/** lua-cjson's encode_max_depth and decode_max_depth. */
const MAX_NESTING = 1000;
/** lua-cjson's encode_sparse_ratio and encode_sparse_safe. */
const SPARSE_RATIO = 2;
const SPARSE_SAFE = 10;

class CjsonError extends Error {}

const ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '/': '\\/', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function encodeString(bytes: string): string {
  return `"${bytes.replace(/["\\/\x00-\x1f]/g, (char) => ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

function encodeNumber(value: number): string {
  if (!Number.isFinite(value)) throw new CjsonError('Cannot serialise number: must not be NaN or Inf');
  return Number.isInteger(value) && Math.abs(value) < 1e14 ? String(value) : formatG(value, 14);
}

const typeName = (L: LuaState, index: number) => luaToBytes(lauxlib.luaL_typename(L, index));

/** JSON text in pieces, refused past the script string bound. */
class JsonText {
  private readonly pieces: string[] = [];
  private length = 0;

  add(text: string): void {
    this.length += text.length;
    if (this.length > SCRIPT_STRING_LIMIT_BYTES) throw new CjsonError(`string length overflow: a script may build strings of at most ${SCRIPT_STRING_LIMIT_BYTES} bytes`);
    this.pieces.push(text);
  }

  text(): string {
    return this.pieces.join('');
  }
}

function encodeValue(L: LuaState, index: number, depth: number, out: JsonText): void {
  switch (lua.lua_type(L, index)) {
    case lua.LUA_TNIL:
      return out.add('null');
    case lua.LUA_TBOOLEAN:
      return out.add(lua.lua_toboolean(L, index) ? 'true' : 'false');
    case lua.LUA_TNUMBER:
      return out.add(encodeNumber(lua.lua_tonumber(L, index)));
    case lua.LUA_TSTRING:
      return out.add(encodeString(luaToBytes(lua.lua_tolstring(L, index)!)));
    case lua.LUA_TTABLE:
      return encodeTable(L, index, depth + 1, out);
    default:
      throw new CjsonError(`Cannot serialise ${typeName(L, index)}: type not supported`);
  }
}

/** The array length of the table at `index` (its largest key), 0 when empty, -1 when not an array. */
function arrayLength(L: LuaState, index: number): number {
  let largest = 0;
  let count = 0;
  lua.lua_pushnil(L);
  while (lua.lua_next(L, index) !== 0) {
    lua.lua_pop(L, 1);
    const key = lua.lua_type(L, -1) === lua.LUA_TNUMBER ? lua.lua_tonumber(L, -1) : 0;
    if (!Number.isInteger(key) || key < 1) {
      lua.lua_pop(L, 1);
      return -1;
    }
    largest = Math.max(largest, key);
    count++;
  }
  if (largest > SPARSE_SAFE && largest > count * SPARSE_RATIO) throw new CjsonError('Cannot serialise table: excessively sparse array');
  return largest;
}

function encodeTable(L: LuaState, index: number, depth: number, out: JsonText): void {
  if (depth > MAX_NESTING) throw new CjsonError(`Cannot serialise, excessive nesting (${depth})`);
  lua.lua_checkstack(L, 3);
  const length = arrayLength(L, index);
  if (length > 0) {
    out.add('[');
    for (let position = 1; position <= length; position++) {
      if (position > 1) out.add(',');
      lua.lua_rawgeti(L, index, position);
      encodeValue(L, lua.lua_gettop(L), depth, out);
      lua.lua_pop(L, 1);
    }
    return out.add(']');
  }
  out.add('{');
  let first = true;
  lua.lua_pushnil(L);
  while (lua.lua_next(L, index) !== 0) {
    const keyType = lua.lua_type(L, -2);
    if (keyType === lua.LUA_TSTRING) out.add(`${first ? '' : ','}${encodeString(luaToBytes(lua.lua_tolstring(L, -2)!))}:`);
    else if (keyType === lua.LUA_TNUMBER) out.add(`${first ? '' : ','}"${encodeNumber(lua.lua_tonumber(L, -2))}":`);
    else throw new CjsonError(`Cannot serialise ${typeName(L, -2)}: table key must be a number or string`);
    first = false;
    encodeValue(L, lua.lua_gettop(L), depth, out);
    lua.lua_pop(L, 1);
  }
  out.add('}');
}

/** Refuses JSON nested deeper than lua-cjson decodes, with its text. */
function checkNesting(text: string): void {
  const tooDeep = firstTooDeep(text, MAX_NESTING);
  if (tooDeep) throw new CjsonError(`Found too many nested data structures (${tooDeep.depth}) at character ${tooDeep.index + 1}`);
}

function pushJson(L: LuaState, value: unknown): void {
  lua.lua_checkstack(L, 3);
  if (value === null) lua.lua_pushnil(L);
  else if (typeof value === 'boolean') lua.lua_pushboolean(L, value);
  else if (typeof value === 'number') lua.lua_pushnumber(L, value);
  else if (typeof value === 'string') lua.lua_pushstring(L, bytesToLua(Buffer.from(value, 'utf8').toString('latin1')));
  else if (Array.isArray(value)) {
    lua.lua_createtable(L, value.length, 0);
    for (let index = 0; index < value.length; index++) {
      pushJson(L, value[index]);
      lua.lua_rawseti(L, -2, index + 1);
    }
  } else {
    const record = value as Record<string, unknown>;
    lua.lua_createtable(L, 0, 0);
    for (const key in record) {
      lua.lua_pushstring(L, bytesToLua(Buffer.from(key, 'utf8').toString('latin1')));
      pushJson(L, record[key]);
      lua.lua_rawset(L, -3);
    }
  }
}

/** `cjson.encode(value)`. */
export function cjsonEncode(L: LuaState, raise: (message: string) => never): number {
  const out = new JsonText();
  try {
    encodeValue(L, 1, 0, out);
  } catch (failure) {
    if (failure instanceof CjsonError) return raise(failure.message);
    throw failure;
  }
  lua.lua_pushstring(L, bytesToLua(out.text()));
  return 1;
}

/** `cjson.decode(text)`: JSON null becomes nil. */
export function cjsonDecode(L: LuaState, raise: (message: string) => never): number {
  const text = lua.lua_type(L, 1) === lua.LUA_TSTRING ? luaToBytes(lua.lua_tolstring(L, 1)!) : undefined;
  if (text === undefined) return raise("bad argument #1 to 'decode' (string expected)");
  let value: unknown;
  try {
    checkNesting(text);
    value = JSON.parse(Buffer.from(text, 'latin1').toString('utf8'));
  } catch (failure) {
    if (failure instanceof CjsonError) return raise(failure.message);
    if (failure instanceof SyntaxError) return raise('Expected value but found invalid token at character 1');
    throw failure;
  }
  pushJson(L, value);
  return 1;
}
