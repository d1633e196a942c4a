// The part of fengari's C-like API the scripting engine uses (fengari ships no type declarations).
declare module 'fengari' {
  export type LuaState = { readonly __luaState: unique symbol };
  export type LuaString = Uint8Array;
  export type LuaCFunction = (L: LuaState) => number;
  export interface LuaDebug {
    currentline: number;
    source?: LuaString;
  }

  export const lua: {
    LUA_OK: number;
    LUA_TNIL: number;
    LUA_TBOOLEAN: number;
    LUA_TNUMBER: number;
    LUA_TSTRING: number;
    LUA_TTABLE: number;
    LUA_TFUNCTION: number;
    LUA_MULTRET: number;
    LUA_MASKCOUNT: number;
    LUA_REGISTRYINDEX: number;
    lua_gettop(L: LuaState): number;
    lua_settop(L: LuaState, index: number): void;
    lua_checkstack(L: LuaState, extra: number): number;
    lua_pop(L: LuaState, count: number): void;
    lua_type(L: LuaState, index: number): number;
    lua_pushnil(L: LuaState): void;
    lua_pushboolean(L: LuaState, value: boolean): void;
    lua_pushinteger(L: LuaState, value: number): void;
    lua_pushnumber(L: LuaState, value: number): void;
    lua_pushstring(L: LuaState, value: LuaString): void;
    lua_pushliteral(L: LuaState, value: string): void;
    lua_pushjsfunction(L: LuaState, fn: LuaCFunction): void;
    lua_pushvalue(L: LuaState, index: number): void;
    lua_toboolean(L: LuaState, index: number): boolean;
    lua_tonumber(L: LuaState, index: number): number;
    lua_isinteger(L: LuaState, index: number): boolean;
    lua_tolstring(L: LuaState, index: number): LuaString | null;
    lua_createtable(L: LuaState, arraySize: number, hashSize: number): void;
    lua_rawseti(L: LuaState, index: number, n: number): void;
    lua_rawgeti(L: LuaState, index: number, n: number): number;
    lua_setfield(L: LuaState, index: number, key: LuaString): void;
    lua_getfield(L: LuaState, index: number, key: LuaString): number;
    lua_rawset(L: LuaState, index: number): void;
    lua_rawget(L: LuaState, index: number): number;
    lua_next(L: LuaState, index: number): number;
    lua_setglobal(L: LuaState, name: LuaString): void;
    lua_getglobal(L: LuaState, name: LuaString): number;
    lua_setmetatable(L: LuaState, index: number): void;
    lua_pcall(L: LuaState, nargs: number, nresults: number, handler: number): number;
    lua_error(L: LuaState): never;
    lua_sethook(L: LuaState, hook: ((L: LuaState, ar: LuaDebug) => void) | null, mask: number, count: number): void;
    lua_getinfo(L: LuaState, what: LuaString, ar: LuaDebug): number;
    lua_getstack(L: LuaState, level: number, ar: LuaDebug): number;
    lua_newuserdata(L: LuaState, size: number): unknown;
    lua_topointer(L: LuaState, index: number): unknown;
    lua_call(L: LuaState, nargs: number, nresults: number): void;
    lua_insert(L: LuaState, index: number): void;
    lua_rotate(L: LuaState, index: number, n: number): void;
    lua_gettable(L: LuaState, index: number): number;
    lua_isstring(L: LuaState, index: number): boolean;
    lua_touserdata(L: LuaState, index: number): unknown;
    lua_atnativeerror(L: LuaState, handler: LuaCFunction): void;
    lua_getmetatable(L: LuaState, index: number): number;
    lua_setupvalue(L: LuaState, funcIndex: number, n: number): LuaString | null;
  };
  export const lauxlib: {
    luaL_newstate(): LuaState;
    luaL_loadbuffer(L: LuaState, buffer: LuaString, size: number | null, name: LuaString): number;
    luaL_requiref(L: LuaState, name: LuaString, open: LuaCFunction, global: number): void;
    luaL_error(L: LuaState, message: LuaString): never;
    luaL_checklstring(L: LuaState, index: number): LuaString;
    luaL_len(L: LuaState, index: number): number;
    luaL_ref(L: LuaState, table: number): number;
    luaL_unref(L: LuaState, table: number, ref: number): void;
    luaL_tolstring(L: LuaState, index: number): LuaString;
    luaL_optinteger(L: LuaState, index: number, fallback: number): number;
    luaL_checkstack(L: LuaState, extra: number, message: LuaString): void;
    luaL_typename(L: LuaState, index: number): LuaString;
    luaL_checktype(L: LuaState, index: number, type: number): void;
    luaL_checkany(L: LuaState, index: number): void;
    luaL_argcheck(L: LuaState, condition: boolean, index: number, message: LuaString): void;
    luaL_getmetafield(L: LuaState, index: number, field: LuaString): number;
  };
  export const lualib: {
    luaopen_base: LuaCFunction;
    luaopen_table: LuaCFunction;
    luaopen_string: LuaCFunction;
    luaopen_math: LuaCFunction;
  };
  export function to_luastring(text: string): LuaString;
  export function to_jsstring(value: LuaString): string;
}
