// Redis 7's read-only tables, for fengari. Redis marks its globals, its library tables and the
// string metatable read-only inside its Lua VM, so no script can change what a later script (of
// any caller) runs. fengari has no such flag: this file adds one. Every table write fengari makes
// on a table that already exists (assignment, rawset, table.insert and friends) goes through
// ltable's `luaH_setfrom`, which its callers reach through the module object, so wrapping that
// export covers them all; `setmetatable` is replaced by a global that checks the flag, as Redis's
// patched lua_setmetatable does. The error text and where it carries a position are Redis's.
import { lauxlib, lua, type LuaCFunction, type LuaState, to_luastring } from './lua51-numbers';

const READ_ONLY_MESSAGE = 'Attempt to modify a readonly table';

interface FengariTable {
  readOnly?: boolean;
}
type SetFrom = (L: LuaState, table: FengariTable, key: unknown, value: unknown) => void;

/* eslint-disable @typescript-eslint/no-require-imports -- fengari's internals have no typed entry point */
const ltable = require('fengari/src/ltable.js') as { luaH_setfrom: SetFrom };
const ldebug = require('fengari/src/ldebug.js') as { luaG_runerror(L: LuaState, message: Uint8Array): never };
/* eslint-enable @typescript-eslint/no-require-imports */

const readOnlyMessage = to_luastring(READ_ONLY_MESSAGE);
const setFrom = ltable.luaH_setfrom;
// luaG_runerror adds `user_script:<line>: ` when the write comes from Lua code and nothing when it
// comes from a library function (rawset), as in Redis.
ltable.luaH_setfrom = (L, table, key, value) => {
  if (table.readOnly) ldebug.luaG_runerror(L, readOnlyMessage);
  setFrom(L, table, key, value);
};

function tableAt(L: LuaState, index: number): FengariTable {
  return lua.lua_topointer(L, index) as FengariTable;
}

/** Marks or unmarks the table at `index` as read-only. */
export function setReadOnly(L: LuaState, index: number, readOnly: boolean): void {
  tableAt(L, index).readOnly = readOnly;
}

const METATABLE_FIELD = to_luastring('__metatable');

/** The base library's setmetatable, refusing read-only tables. */
export const setmetatableUnlessReadOnly: LuaCFunction = (L) => {
  const type = lua.lua_type(L, 2);
  lauxlib.luaL_checktype(L, 1, lua.LUA_TTABLE);
  lauxlib.luaL_argcheck(L, type === lua.LUA_TNIL || type === lua.LUA_TTABLE, 2, to_luastring('nil or table expected'));
  if (tableAt(L, 1).readOnly) return ldebug.luaG_runerror(L, readOnlyMessage);
  if (lauxlib.luaL_getmetafield(L, 1, METATABLE_FIELD) !== lua.LUA_TNIL) return lauxlib.luaL_error(L, to_luastring('cannot change a protected metatable'));
  lua.lua_settop(L, 2);
  lua.lua_setmetatable(L, 1);
  return 1;
};
