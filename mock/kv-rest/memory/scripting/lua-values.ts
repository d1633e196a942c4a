// Redis's conversion rules between typed replies and Lua values, both ways, on fengari's stack.
// Strings cross as raw bytes: byte strings (bytes.ts) map one char to one byte of a Lua string.
import { lua, type LuaState, type LuaString, to_luastring } from './lua51-numbers';
import { array, bulk, error, integer, NIL, type Reply, simple } from '../../reply';

const OK_FIELD = to_luastring('ok');
const ERR_FIELD = to_luastring('err');

/**
 * Below this length strings cross by a plain loop: KEYS, ARGV and redis.call's arguments and
 * replies are short, and a Buffer per string costs more than the copy itself.
 */
const SHORT_STRING = 64;

export function bytesToLua(bytes: string): LuaString {
  if (bytes.length >= SHORT_STRING) return Buffer.from(bytes, 'latin1');
  const value = new Uint8Array(bytes.length);
  for (let index = 0; index < bytes.length; index++) value[index] = bytes.charCodeAt(index);
  return value;
}

export function luaToBytes(value: LuaString): string {
  if (value.length >= SHORT_STRING) return Buffer.from(value.buffer, value.byteOffset, value.length).toString('latin1');
  return String.fromCharCode.apply(null, value as unknown as number[]);
}

/** Pushes a table `{<field>=<text>}`, the shape Lua code sees for status and error replies. */
export function pushFieldTable(L: LuaState, field: 'ok' | 'err', text: string): void {
  lua.lua_createtable(L, 0, 1);
  lua.lua_pushstring(L, bytesToLua(text));
  lua.lua_setfield(L, -2, field === 'ok' ? OK_FIELD : ERR_FIELD);
}

/** Reply -> Lua: integer -> number, bulk -> string, nil -> false, status -> {ok=}, error -> {err=}, array -> table. */
export function pushReply(L: LuaState, reply: Reply): void {
  switch (reply.kind) {
    case 'integer':
      // A double, as in Lua 5.1 (see lua51-numbers.ts).
      lua.lua_pushnumber(L, Number(reply.value));
      return;
    case 'bulk':
      lua.lua_pushstring(L, bytesToLua(reply.value));
      return;
    case 'nil':
    case 'nullArray':
      lua.lua_pushboolean(L, false);
      return;
    case 'simple':
      pushFieldTable(L, 'ok', reply.value);
      return;
    case 'error':
      pushFieldTable(L, 'err', reply.message);
      return;
    case 'array':
      lua.lua_createtable(L, reply.items.length, 0);
      reply.items.forEach((item, index) => {
        pushReply(L, item);
        lua.lua_rawseti(L, -2, index + 1);
      });
  }
}

/** redis.error_reply's text: a leading `-` is dropped, and a text with no code gets `ERR `. */
export function errorReplyText(text: string): string {
  const trimmed = text.startsWith('-') ? text.slice(1) : text;
  return trimmed.includes(' ') ? trimmed : `ERR ${trimmed}`;
}

function stringField(L: LuaState, index: number, field: LuaString): string | undefined {
  const type = lua.lua_getfield(L, index, field);
  const value = type === lua.LUA_TSTRING ? luaToBytes(lua.lua_tolstring(L, -1)!) : undefined;
  lua.lua_pop(L, 1);
  return value;
}

/**
 * Lua -> Reply: number -> integer (truncated), true -> 1, false/nil -> nil, string -> bulk,
 * {ok=} -> status, {err=} -> error (its text as is), other tables -> arrays up to the first nil.
 */
export function replyFromLua(L: LuaState, index: number): Reply {
  switch (lua.lua_type(L, index)) {
    case lua.LUA_TNUMBER:
      return integer(Math.trunc(lua.lua_tonumber(L, index)));
    case lua.LUA_TBOOLEAN:
      return lua.lua_toboolean(L, index) ? integer(1) : NIL;
    case lua.LUA_TSTRING:
      return bulk(luaToBytes(lua.lua_tolstring(L, index)!));
    case lua.LUA_TTABLE:
      return tableReply(L, index < 0 ? lua.lua_gettop(L) + index + 1 : index);
    default:
      return NIL;
  }
}

function tableReply(L: LuaState, index: number): Reply {
  const err = stringField(L, index, ERR_FIELD);
  if (err !== undefined) return error(err.startsWith('-') ? err.slice(1) : err);
  const ok = stringField(L, index, OK_FIELD);
  if (ok !== undefined) return simple(ok);
  const items: Reply[] = [];
  for (let position = 1; ; position++) {
    if (lua.lua_rawgeti(L, index, position) === lua.LUA_TNIL) {
      lua.lua_pop(L, 1);
      break;
    }
    items.push(replyFromLua(L, -1));
    lua.lua_pop(L, 1);
  }
  return array(items);
}
