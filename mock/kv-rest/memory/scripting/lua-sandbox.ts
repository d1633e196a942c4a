// One Lua VM (fengari) set up the way Redis sets up its scripting environment: base, table, string
// and math libraries, the `redis` and `cjson` tables, Lua 5.1's global `unpack`, and globals,
// library tables and the string metatable read-only (read-only-tables.ts), so that every script
// sees the same environment whatever earlier scripts tried. fengari over wasmoon: it is synchronous
// JS, so redis.call runs commands inline with no JS/WASM hop per call, and it has instruction-count
// hooks for the script time limit.
import { lauxlib, lua, lualib, type LuaCFunction, type LuaState, type LuaString, to_luastring } from './lua51-numbers';
import { scriptSha } from '../../../../shared/script-shebang';
import { cjsonDecode, cjsonEncode } from './cjson';
import { bytesToLua, errorReplyText, luaToBytes, pushFieldTable } from './lua-values';
import { setmetatableUnlessReadOnly, setReadOnly } from './read-only-tables';
import { stringMatchingFunctions } from './string-matching';
import { EMULATED_REDIS_VERSION, EMULATED_REDIS_VERSION_NUM } from '../commands/server';

/** What `redis.call` and `redis.pcall` do; the runner sets it for each script run. */
export type RedisCallHandler = (L: LuaState, raiseErrors: boolean) => number;

const GLOBALS_INDEX = 2;

/**
 * Nils kept at the bottom of the stack for the sandbox's lifetime. fengari pops with `delete` on its
 * stack array, and once that array has 64 slots or more (any script that calls redis.call) V8 turns
 * a mostly empty one into a slow dictionary array; these permanent entries keep it dense enough to
 * stay a fast array for stacks up to a few hundred slots (a script run costs about a third less).
 */
const STACK_BALLAST = 16;
/** What Redis makes read-only besides the globals table, its metatable and the string metatable. */
const LIBRARY_TABLES = ['redis', 'string', 'table', 'math', 'cjson'];
const KEYS_NAME = to_luastring('KEYS');
const ARGV_NAME = to_luastring('ARGV');

/** Redis's script environment protections, in Lua since they are Lua semantics. */
const PROTECT_GLOBALS = `
local error_, type_, tostring_ = error, type, tostring
-- error with a number gets a position, as in Lua 5.1.
error = function(message, level)
  if type_(message) == 'number' then message = tostring_(message) end
  if level == 0 then error_(message, 0) end
  error_(message, (level or 1) + 1)
end
unpack = table.unpack
setmetatable(_G, {
  __index = function(_, name) error_("Script attempted to access nonexistent global variable '" .. tostring_(name) .. "'", 2) end,
})
`;

/** lua_pcall's status when a JS exception broke into the VM and could not be turned into a Lua error. */
const STATUS_JS_EXCEPTION = -1;

export class LuaSandbox {
  readonly L: LuaState = lauxlib.luaL_newstate();
  private callHandler: RedisCallHandler = () => 0;
  /** When the current run must stop (epoch ms); the runner sets it for each run. */
  deadline = Infinity;
  /** Set when the current run passed its deadline. */
  timedOut = false;
  /**
   * A JS exception thrown inside the VM during this run (a JS stack overflow, a failed allocation):
   * the run fails whatever the script catches, and the runner replaces this sandbox afterwards.
   */
  engineFailure: Error | undefined;

  constructor() {
    const { L } = this;
    for (const [name, open] of [['_G', lualib.luaopen_base], ['table', lualib.luaopen_table], ['string', lualib.luaopen_string], ['math', lualib.luaopen_math]] as const) {
      lauxlib.luaL_requiref(L, to_luastring(name), open, 1);
      lua.lua_pop(L, 1);
    }
    this.replaceFunctions('string', stringMatchingFunctions(() => this.checkDeadline()));
    for (const name of ['dofile', 'loadfile', 'load', 'print', 'require']) {
      lua.lua_pushnil(L);
      lua.lua_setglobal(L, to_luastring(name));
    }
    this.installRedisTable();
    this.installLibrary('cjson', { encode: (state) => cjsonEncode(state, (message) => this.raise(message)), decode: (state) => cjsonDecode(state, (message) => this.raise(message)) });
    // Only records: the JS stack or the Lua stack may be exhausted here, so it does as little as it can.
    lua.lua_atnativeerror(L, (state) => {
      const failure = lua.lua_touserdata(state, 1);
      this.engineFailure = failure instanceof Error ? failure : new Error(String(failure));
      return 0;
    });
    this.runSetup(PROTECT_GLOBALS);
    this.installProtectedCalls();
    lua.lua_pushjsfunction(L, setmetatableUnlessReadOnly);
    lua.lua_setglobal(L, to_luastring('setmetatable'));
    this.makeReadOnly();
    lua.lua_checkstack(L, STACK_BALLAST);
    for (let slot = 0; slot < STACK_BALLAST; slot++) lua.lua_pushnil(L);
  }

  /** Raises the time limit error once the run is past its deadline (and on every call after that). */
  checkDeadline(): void {
    if (this.timedOut || Date.now() > this.deadline) {
      this.timedOut = true;
      this.raise('script time limit exceeded');
    }
  }

  /** Notes a protected call's status; a JS exception makes the whole run fail (see engineFailure). */
  noteStatus(status: number): void {
    if (status === STATUS_JS_EXCEPTION) this.engineFailure ??= new Error('a JS exception broke into the script');
  }

  /** Why the current run must stop whatever the script catches, if it must. */
  abortMessage(): string | undefined {
    if (this.timedOut) return 'script time limit exceeded';
    if (this.engineFailure) return `the script engine failed: ${this.engineFailure.message}`;
    return undefined;
  }

  /** Drops everything above the ballast: what a script run or a failed compile left on the stack. */
  clearStack(): void {
    lua.lua_settop(this.L, STACK_BALLAST);
  }

  /** Sets what redis.call/pcall run until the next call of this method. */
  setCallHandler(handler: RedisCallHandler): void {
    this.callHandler = handler;
  }

  /** Raises a Lua error with a string message from inside a JS function. */
  raise(message: string): never {
    return lauxlib.luaL_error(this.L, to_luastring(message.replace(/%/g, '%%')));
  }

  /**
   * Sets KEYS and ARGV, new tables on every run, or removes them (`undefined`: a function's run, which
   * has none), lifting the read-only flag of the globals meanwhile.
   */
  setKeysAndArgv(keys: readonly string[] | undefined, argv: readonly string[] | undefined): void {
    const { L } = this;
    lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, GLOBALS_INDEX);
    setReadOnly(L, -1, false);
    this.setArrayField(KEYS_NAME, keys);
    this.setArrayField(ARGV_NAME, argv);
    setReadOnly(L, -1, true);
    lua.lua_pop(L, 1);
  }

  /**
   * Points the first upvalue (`_ENV`) of the function at the top of the stack back at the globals:
   * in Lua 5.3 a script may assign `_ENV`, and its compiled function outlives the run.
   */
  resetEnvironment(): void {
    const { L } = this;
    lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, GLOBALS_INDEX);
    lua.lua_setupvalue(L, -2, 1);
  }

  private makeReadOnly(): void {
    const { L } = this;
    lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, GLOBALS_INDEX);
    lua.lua_getmetatable(L, -1);
    setReadOnly(L, -1, true);
    lua.lua_pop(L, 1);
    for (const name of LIBRARY_TABLES) {
      lua.lua_getfield(L, -1, to_luastring(name));
      setReadOnly(L, -1, true);
      lua.lua_pop(L, 1);
    }
    setReadOnly(L, -1, true);
    lua.lua_pushliteral(L, '');
    lua.lua_getmetatable(L, -1);
    setReadOnly(L, -1, true);
    lua.lua_pop(L, 3);
  }

  /** Pushes a new table `{values...}` (a function's keys or arguments). */
  pushArray(values: readonly string[]): void {
    const { L } = this;
    lua.lua_checkstack(L, 2);
    lua.lua_createtable(L, values.length, 0);
    for (let index = 0; index < values.length; index++) {
      lua.lua_pushstring(L, bytesToLua(values[index]));
      lua.lua_rawseti(L, -2, index + 1);
    }
  }

  /** `table[name] = {values...}` (or nil) on the table at the top of the stack. */
  private setArrayField(name: LuaString, values: readonly string[] | undefined): void {
    const { L } = this;
    lua.lua_pushstring(L, name);
    if (values) this.pushArray(values);
    else lua.lua_pushnil(L);
    lua.lua_rawset(L, -3);
  }

  private installRedisTable(): void {
    const raiseText = (L: LuaState): string => {
      if (lua.lua_type(L, 1) !== lua.LUA_TSTRING) this.raise('wrong number or type of arguments');
      return luaToBytes(lua.lua_tolstring(L, 1)!);
    };
    this.installLibrary(
      'redis',
      {
        call: (L) => this.callHandler(L, true),
        pcall: (L) => this.callHandler(L, false),
        error_reply: (L) => {
          pushFieldTable(L, 'err', errorReplyText(raiseText(L)));
          return 1;
        },
        status_reply: (L) => {
          pushFieldTable(L, 'ok', raiseText(L));
          return 1;
        },
        sha1hex: (L) => {
          lua.lua_pushstring(L, to_luastring(scriptSha(raiseText(L))));
          return 1;
        },
        log: () => 0,
        replicate_commands: (L) => {
          lua.lua_pushboolean(L, true);
          return 1;
        },
        set_repl: () => 0,
      },
      {
        LOG_DEBUG: 0, LOG_VERBOSE: 1, LOG_NOTICE: 2, LOG_WARNING: 3, REPL_NONE: 0, REPL_AOF: 1, REPL_SLAVE: 2, REPL_REPLICA: 2, REPL_ALL: 3,
        REDIS_VERSION: EMULATED_REDIS_VERSION,
        REDIS_VERSION_NUM: EMULATED_REDIS_VERSION_NUM,
      },
    );
  }

  /**
   * pcall and xpcall as the base library has them, except that they re-raise once the run is aborted
   * (past its time limit, or after a JS exception), so a script cannot catch its way past either.
   */
  private installProtectedCalls(): void {
    const finish = (L: LuaState, status: number, below: number): number => {
      this.noteStatus(status);
      const abort = this.abortMessage();
      if (abort !== undefined) this.raise(abort);
      if (status === lua.LUA_OK) return lua.lua_gettop(L) - below;
      lua.lua_pushboolean(L, false);
      lua.lua_insert(L, -2);
      return 2;
    };
    const pcall: LuaCFunction = (L) => {
      lauxlib.luaL_checkany(L, 1);
      lua.lua_pushboolean(L, true);
      lua.lua_insert(L, 1);
      return finish(L, lua.lua_pcall(L, lua.lua_gettop(L) - 2, lua.LUA_MULTRET, 0), 0);
    };
    // (f, handler, args...) becomes (f, handler, true, f, args...): the handler stays at index 2.
    const xpcall: LuaCFunction = (L) => {
      const count = lua.lua_gettop(L);
      lauxlib.luaL_checktype(L, 2, lua.LUA_TFUNCTION);
      lua.lua_pushboolean(L, true);
      lua.lua_pushvalue(L, 1);
      lua.lua_rotate(L, 3, 2);
      return finish(L, lua.lua_pcall(L, count - 2, lua.LUA_MULTRET, 2), 2);
    };
    for (const [name, fn] of [['pcall', pcall], ['xpcall', xpcall]] as const) {
      lua.lua_pushjsfunction(this.L, fn);
      lua.lua_setglobal(this.L, to_luastring(name));
    }
  }

  /** Sets functions of the global table `library`. */
  private replaceFunctions(library: string, functions: Record<string, LuaCFunction>): void {
    const { L } = this;
    lua.lua_getglobal(L, to_luastring(library));
    for (const [field, fn] of Object.entries(functions)) {
      lua.lua_pushjsfunction(L, fn);
      lua.lua_setfield(L, -2, to_luastring(field));
    }
    lua.lua_pop(L, 1);
  }

  private installLibrary(name: string, functions: Record<string, LuaCFunction>, constants: Record<string, number | string> = {}): void {
    const { L } = this;
    lua.lua_createtable(L, 0, Object.keys(functions).length);
    for (const [field, fn] of Object.entries(functions)) {
      lua.lua_pushjsfunction(L, fn);
      lua.lua_setfield(L, -2, to_luastring(field));
    }
    for (const [field, value] of Object.entries(constants)) {
      if (typeof value === 'string') lua.lua_pushstring(L, to_luastring(value));
      else lua.lua_pushinteger(L, value);
      lua.lua_setfield(L, -2, to_luastring(field));
    }
    lua.lua_setglobal(L, to_luastring(name));
  }

  private runSetup(code: string): void {
    const { L } = this;
    const loaded = lauxlib.luaL_loadbuffer(L, to_luastring(code), null, to_luastring('=setup')) === lua.LUA_OK;
    if (!loaded || lua.lua_pcall(L, 0, 0, 0) !== lua.LUA_OK) {
      throw new Error(`Lua setup failed: ${luaToBytes(lua.lua_tolstring(L, -1)!)}`);
    }
  }
}
