// The `cjson` library Redis gives scripts: encode/decode between Lua values and JSON text.
// Numbers are written with `%.14g` as lua-cjson does; strings keep their bytes.
import { lua, type LuaState } from './lua51-numbers';
import { formatG } from '../format-double';
import { bytesToLua, luaToBytes } from './lua-values';

const ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '/': '\\/', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function encodeString(bytes: string): string {
  return `"${bytes.replace(/["\\/\x00-\x1f]/g, (char) => ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

function encodeNumber(value: number): string {
  if (!Number.isFinite(value)) throw new Error('Cannot serialise inf or nan');
  return Number.isInteger(value) && Math.abs(value) < 1e14 ? String(value) : formatG(value, 14);
}

/** Encodes the Lua value at `index` as JSON bytes; a table with keys 1..n only is an array. */
function encodeValue(L: LuaState, index: number, depth: number): string {
  if (depth > 1000) throw new Error('Cannot serialise, excessive nesting (1001)');
  switch (lua.lua_type(L, index)) {
    case lua.LUA_TNIL:
      return 'null';
    case lua.LUA_TBOOLEAN:
      return lua.lua_toboolean(L, index) ? 'true' : 'false';
    case lua.LUA_TNUMBER:
      return encodeNumber(lua.lua_tonumber(L, index));
    case lua.LUA_TSTRING:
      return encodeString(luaToBytes(lua.lua_tolstring(L, index)!));
    case lua.LUA_TTABLE:
      return encodeTable(L, index, depth);
    default:
      throw new Error('Cannot serialise a function or userdata: type not supported');
  }
}

function encodeTable(L: LuaState, index: number, depth: number): string {
  const entries: [string | number, string][] = [];
  let isArray = true;
  lua.lua_pushnil(L);
  while (lua.lua_next(L, index) !== 0) {
    const keyType = lua.lua_type(L, -2);
    let key: string | number;
    if (keyType === lua.LUA_TNUMBER && lua.lua_isinteger(L, -2) && lua.lua_tonumber(L, -2) > 0) key = lua.lua_tonumber(L, -2);
    else if (keyType === lua.LUA_TSTRING || keyType === lua.LUA_TNUMBER) {
      isArray = false;
      key = keyType === lua.LUA_TSTRING ? luaToBytes(lua.lua_tolstring(L, -2)!) : String(lua.lua_tonumber(L, -2));
    } else {
      throw new Error('Cannot serialise table: table key must be a number or string');
    }
    entries.push([key, encodeValue(L, lua.lua_gettop(L), depth + 1)]);
    lua.lua_pop(L, 1);
  }
  if (isArray && entries.length > 0) {
    const byPosition = new Map(entries as [number, string][]);
    const length = Math.max(...byPosition.keys());
    return `[${Array.from({ length }, (_, i) => byPosition.get(i + 1) ?? 'null').join(',')}]`;
  }
  return `{${entries.map(([key, value]) => `${encodeString(String(key))}:${value}`).join(',')}}`;
}

function pushJson(L: LuaState, value: unknown): void {
  if (value === null) lua.lua_pushnil(L);
  else if (typeof value === 'boolean') lua.lua_pushboolean(L, value);
  else if (typeof value === 'number') lua.lua_pushnumber(L, value);
  else if (typeof value === 'string') lua.lua_pushstring(L, bytesToLua(Buffer.from(value, 'utf8').toString('latin1')));
  else if (Array.isArray(value)) {
    lua.lua_createtable(L, value.length, 0);
    value.forEach((item, i) => {
      pushJson(L, item);
      lua.lua_rawseti(L, -2, i + 1);
    });
  } else {
    const record = value as Record<string, unknown>;
    lua.lua_createtable(L, 0, Object.keys(record).length);
    for (const [key, item] of Object.entries(record)) {
      lua.lua_pushstring(L, bytesToLua(Buffer.from(key, 'utf8').toString('latin1')));
      pushJson(L, item);
      lua.lua_rawset(L, -3);
    }
  }
}

/** `cjson.encode(value)`: raises a Lua error (like lua-cjson) for values JSON cannot hold. */
export function cjsonEncode(L: LuaState, raise: (message: string) => never): number {
  let text: string;
  try {
    text = encodeValue(L, 1, 0);
  } catch (failure) {
    return raise((failure as Error).message);
  }
  lua.lua_pushstring(L, bytesToLua(text));
  return 1;
}

/** `cjson.decode(text)`: JSON null becomes nil. */
export function cjsonDecode(L: LuaState, raise: (message: string) => never): number {
  const text = lua.lua_type(L, 1) === lua.LUA_TSTRING ? luaToBytes(lua.lua_tolstring(L, 1)!) : undefined;
  if (text === undefined) return raise('bad argument #1 to \'decode\' (string expected)');
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'latin1').toString('utf8'));
  } catch {
    return raise('Expected value but found invalid token at character 1');
  }
  pushJson(L, value);
  return 1;
}
