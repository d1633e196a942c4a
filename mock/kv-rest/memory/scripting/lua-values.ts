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

/**
 * Tables nested deeper than this become the error `ERR reached lua stack limit`, Redis's answer
 * when it runs out of Lua stack. Redis 7.0 gets there at 7995 levels (measured); the bound here is
 * lower because the reply encoders recurse once per level and overflow the JS stack near 3000.
 */
const DEEPEST_REPLY_TABLE = 1000;
const STACK_LIMIT_REACHED = error('ERR reached lua stack limit');

/**
 * The string in field `ok` or `err` of the table at the top of the stack, read raw as Redis reads
 * it: a metamethod would run Lua code outside the script's protected call.
 */
export function textField(L: LuaState, field: 'ok' | 'err'): string | undefined {
  lua.lua_pushstring(L, field === 'ok' ? OK_FIELD : ERR_FIELD);
  const type = lua.lua_rawget(L, -2);
  const value = type === lua.LUA_TSTRING ? luaToBytes(lua.lua_tolstring(L, -1)!) : undefined;
  lua.lua_pop(L, 1);
  return value;
}

/**
 * A value that is not a table: number -> integer (truncated, as redis-server casts it to a C integer,
 * which has no -0: -0.5 answers 0, not the -0 of Math.trunc, as the native scripts' numberReply does),
 * true -> 1, false/nil -> nil, string -> bulk.
 */
function scalarReply(L: LuaState, index: number): Reply {
  switch (lua.lua_type(L, index)) {
    case lua.LUA_TNUMBER:
      return integer(Math.trunc(lua.lua_tonumber(L, index)) + 0);
    case lua.LUA_TBOOLEAN:
      return lua.lua_toboolean(L, index) ? integer(1) : NIL;
    case lua.LUA_TSTRING:
      return bulk(luaToBytes(lua.lua_tolstring(L, index)!));
    default:
      return NIL;
  }
}

/** The reply of a `{err=...}` or `{ok=...}` table at the top of the stack, if it is one. */
function fieldTableReply(L: LuaState): Reply | undefined {
  const err = textField(L, 'err');
  if (err !== undefined) return error(err.startsWith('-') ? err.slice(1) : err);
  const ok = textField(L, 'ok');
  return ok === undefined ? undefined : simple(ok);
}

interface OpenTable {
  readonly items: Reply[];
  position: number;
}

/**
 * Lua -> Reply: scalars as scalarReply, {ok=} -> status, {err=} -> error (its text as is), other
 * tables -> arrays up to the first nil. Nested tables are walked with a stack of our own, so the
 * depth costs no JS stack; each open table waits on the Lua stack.
 */
export function replyFromLua(L: LuaState, index: number): Reply {
  if (lua.lua_type(L, index) !== lua.LUA_TTABLE) return scalarReply(L, index);
  lua.lua_checkstack(L, 3);
  lua.lua_pushvalue(L, index);
  const root = fieldTableReply(L);
  if (root !== undefined) {
    lua.lua_pop(L, 1);
    return root;
  }
  const open: OpenTable[] = [{ items: [], position: 1 }];
  for (;;) {
    const table = open[open.length - 1];
    const type = lua.lua_rawgeti(L, -1, table.position++);
    if (type === lua.LUA_TNIL) {
      lua.lua_pop(L, 2);
      open.pop();
      const finished = array(table.items);
      if (open.length === 0) return finished;
      open[open.length - 1].items.push(finished);
    } else if (type !== lua.LUA_TTABLE) {
      table.items.push(scalarReply(L, -1));
      lua.lua_pop(L, 1);
    } else {
      const special = open.length >= DEEPEST_REPLY_TABLE ? STACK_LIMIT_REACHED : fieldTableReply(L);
      if (special !== undefined) {
        table.items.push(special);
        lua.lua_pop(L, 1);
      } else {
        lua.lua_checkstack(L, 3);
        open.push({ items: [], position: 1 });
      }
    }
  }
}
