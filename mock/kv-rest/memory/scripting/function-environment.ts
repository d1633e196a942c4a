// The globals a function library sees, in the scripts' own Lua sandbox: one read-only environment
// table per sandbox whose lookups depend on the phase, as Redis 7.0 swaps its functions' globals.
// While FUNCTION LOAD runs a library's code, only `redis.register_function`, `redis.log`, the
// `LOG_*` levels and `REDIS_VERSION` exist (Redis forbids redis.call there, and even `string` or
// `error`); when FCALL runs a registered function, every global of the scripts' sandbox is there
// but KEYS and ARGV (a function gets its keys and arguments as parameters). Library code can write
// no global in either phase. Library code may keep the load phase's `redis` table (`local R =
// redis`) and call R.register_function from a function later: as in Redis, that raises, and nothing
// is registered or referenced (issue 25 finding 5).
import { lauxlib, lua, type LuaCFunction, type LuaState, to_luastring } from './lua51-numbers';
import type { LuaSandbox } from './lua-sandbox';
import { luaToBytes, pushFieldTable } from './lua-values';
import { setReadOnly } from './read-only-tables';
import { FUNCTION_FLAGS, LIBRARY_LIMITS, nameError, type FunctionInfo } from './function-libraries';
import { EMULATED_REDIS_VERSION, EMULATED_REDIS_VERSION_NUM } from '../commands/server';

const GLOBALS_INDEX = 2;
const HIDDEN_AT_RUN_TIME: ReadonlySet<string> = new Set(['KEYS', 'ARGV']);
const LOG_LEVELS = { LOG_DEBUG: 0, LOG_VERBOSE: 1, LOG_NOTICE: 2, LOG_WARNING: 3 };

/** A function as library code registered it: what FUNCTION LIST shows, and the callback's registry reference. */
export interface RegisteredFunction extends FunctionInfo {
  readonly ref: number;
}

/** Raises `{err = message}`, as Redis's own library functions raise errors (no position added). */
function raiseReply(L: LuaState, message: string): never {
  pushFieldTable(L, 'err', message);
  return lua.lua_error(L);
}

function raiseMissing(L: LuaState, name: string): never {
  return lauxlib.luaL_error(L, to_luastring(`Script attempted to access nonexistent global variable '${name.replace(/%/g, '%%')}'`));
}

/** The text of the string at `index`, or undefined for any other type. */
function stringAt(L: LuaState, index: number): string | undefined {
  return lua.lua_type(L, index) === lua.LUA_TSTRING ? luaToBytes(lua.lua_tolstring(L, index)!) : undefined;
}

export class FunctionEnvironment {
  /** Registry reference of the environment table library chunks get as `_ENV`. */
  readonly envRef: number;
  private loading = false;
  private registered: RegisteredFunction[] = [];
  /** Names registered by the library loading now, so a repeated name is found in constant time. */
  private registeredNames = new Set<string>();
  private readonly loadApiRef: number;

  constructor(private readonly sandbox: LuaSandbox) {
    const { L } = sandbox;
    this.loadApiRef = this.createLoadApi();
    lua.lua_createtable(L, 0, 0);
    lua.lua_createtable(L, 0, 1);
    lua.lua_pushjsfunction(L, this.lookup);
    lua.lua_setfield(L, -2, to_luastring('__index'));
    setReadOnly(L, -1, true);
    lua.lua_setmetatable(L, -2);
    setReadOnly(L, -1, true);
    this.envRef = lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX);
  }

  /**
   * Runs `run` (the library chunk's protected call) in the load phase and answers what it
   * registered; references of a failed load are the caller's to release.
   */
  loadPhase(run: () => number): { readonly status: number; readonly registered: readonly RegisteredFunction[] } {
    this.loading = true;
    this.registered = [];
    this.registeredNames = new Set();
    try {
      return { status: run(), registered: this.registered };
    } finally {
      this.loading = false;
      this.registered = [];
      this.registeredNames = new Set();
    }
  }

  /** Global lookups of library code: the load API while loading, the sandbox's globals but KEYS and ARGV after. */
  private readonly lookup: LuaCFunction = (L) => {
    const name = stringAt(L, 2) ?? luaToBytes(lauxlib.luaL_tolstring(L, 2));
    if (this.loading) {
      if (name !== 'redis') return raiseMissing(L, name);
      lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, this.loadApiRef);
      return 1;
    }
    if (HIDDEN_AT_RUN_TIME.has(name)) return raiseMissing(L, name);
    lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, GLOBALS_INDEX);
    lua.lua_pushvalue(L, 2);
    if (lua.lua_rawget(L, -2) === lua.LUA_TNIL) return raiseMissing(L, name);
    return 1;
  };

  /** The `redis` table of the load phase, read-only, whose missing fields raise as missing globals do. */
  private createLoadApi(): number {
    const { L } = this.sandbox;
    lua.lua_createtable(L, 0, 8);
    lua.lua_pushjsfunction(L, this.registerFunction);
    lua.lua_setfield(L, -2, to_luastring('register_function'));
    lua.lua_pushjsfunction(L, () => 0);
    lua.lua_setfield(L, -2, to_luastring('log'));
    for (const [level, value] of Object.entries(LOG_LEVELS)) {
      lua.lua_pushinteger(L, value);
      lua.lua_setfield(L, -2, to_luastring(level));
    }
    lua.lua_pushstring(L, to_luastring(EMULATED_REDIS_VERSION));
    lua.lua_setfield(L, -2, to_luastring('REDIS_VERSION'));
    lua.lua_pushnumber(L, EMULATED_REDIS_VERSION_NUM);
    lua.lua_setfield(L, -2, to_luastring('REDIS_VERSION_NUM'));
    lua.lua_createtable(L, 0, 1);
    lua.lua_pushjsfunction(L, (state) => raiseMissing(state, stringAt(state, 2) ?? luaToBytes(lauxlib.luaL_tolstring(state, 2))));
    lua.lua_setfield(L, -2, to_luastring('__index'));
    setReadOnly(L, -1, true);
    lua.lua_setmetatable(L, -2);
    setReadOnly(L, -1, true);
    return lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX);
  }

  /** redis.register_function(name, callback) or redis.register_function{function_name=, callback=, flags=, description=}. */
  private readonly registerFunction: LuaCFunction = (L) => {
    // Redis checks the phase before the arguments: redis-server 7.0.15 answers a late call with
    // wrong arguments with this error too.
    if (!this.loading) return raiseReply(L, 'ERR redis.register_function can only be called on FUNCTION LOAD command');
    const count = lua.lua_gettop(L);
    let name: string | undefined;
    let description: string | undefined;
    let flags: readonly string[] = [];
    if (count === 1) {
      if (lua.lua_type(L, 1) !== lua.LUA_TTABLE) {
        return raiseReply(L, 'ERR calling redis.register_function with a single argument is only applicable to Lua table (representing named arguments).');
      }
      const named = this.namedArguments(L);
      ({ name, description, flags } = named);
    } else if (count === 2) {
      // Redis reads names with lua_tostring, so a number is a name too.
      if (!lua.lua_isstring(L, 1)) return raiseReply(L, 'ERR first argument to redis.register_function must be a string');
      name = luaToBytes(lua.lua_tolstring(L, 1)!);
      if (lua.lua_type(L, 2) !== lua.LUA_TFUNCTION) return raiseReply(L, 'ERR second argument to redis.register_function must be a function');
      lua.lua_settop(L, 2);
    } else {
      return raiseReply(L, 'ERR wrong number of arguments to redis.register_function');
    }
    if (name === undefined) return raiseReply(L, 'ERR redis.register_function must get a function name argument');
    const refused = nameError(name);
    if (refused !== undefined) return raiseReply(L, refused);
    if (this.registeredNames.has(name)) return raiseReply(L, 'ERR Function already exists in the library');
    if (this.registered.length >= LIBRARY_LIMITS.maxFunctions) return raiseReply(L, `ERR the memory engine holds at most ${LIBRARY_LIMITS.maxFunctions} functions`);
    // The callback is at the top of the stack.
    this.registered.push({ name, description, flags, ref: lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX) });
    this.registeredNames.add(name);
    return 0;
  };

  /** The table form's fields; leaves the callback at the top of the stack. */
  private namedArguments(L: LuaState): { name: string | undefined; description: string | undefined; flags: readonly string[] } {
    let name: string | undefined;
    let description: string | undefined;
    let flags: readonly string[] = [];
    let callback = false;
    lua.lua_pushnil(L);
    while (lua.lua_next(L, 1) !== 0) {
      const key = stringAt(L, -2);
      if (key === 'function_name') {
        name = lua.lua_isstring(L, -1) ? luaToBytes(lua.lua_tolstring(L, -1)!) : raiseReply(L, 'ERR function_name argument given to redis.register_function must be a string');
      } else if (key === 'description') {
        description = lua.lua_isstring(L, -1) ? luaToBytes(lua.lua_tolstring(L, -1)!) : raiseReply(L, 'ERR description argument given to redis.register_function must be a string');
      } else if (key === 'callback') {
        if (lua.lua_type(L, -1) !== lua.LUA_TFUNCTION) raiseReply(L, 'ERR callback argument given to redis.register_function must be a function');
        callback = true;
      } else if (key === 'flags') {
        flags = this.flagsAt(L);
      } else {
        raiseReply(L, 'ERR unknown argument given to redis.register_function');
      }
      lua.lua_pop(L, 1);
    }
    if (!callback) raiseReply(L, 'ERR redis.register_function must get a callback argument');
    lua.lua_getfield(L, 1, to_luastring('callback'));
    return { name, description, flags };
  }

  /** The flags table at the top of the stack, in Redis's own order (FUNCTION LIST shows them so). */
  private flagsAt(L: LuaState): readonly string[] {
    if (lua.lua_type(L, -1) !== lua.LUA_TTABLE) raiseReply(L, 'ERR flags argument to redis.register_function must be a table representing function flags');
    const given = new Set<string>();
    for (let index = 1; ; index++) {
      const type = lua.lua_rawgeti(L, -1, index);
      const flag = type === lua.LUA_TNIL ? undefined : stringAt(L, -1);
      lua.lua_pop(L, 1);
      if (type === lua.LUA_TNIL) break;
      if (flag === undefined || !FUNCTION_FLAGS.has(flag)) raiseReply(L, 'ERR unknown flag given');
      given.add(flag!);
    }
    return [...FUNCTION_FLAGS].filter((flag) => given.has(flag));
  }
}
