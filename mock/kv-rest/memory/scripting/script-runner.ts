// Compiles, caches and runs scripts in one Lua sandbox: KEYS/ARGV, redis.call/pcall with Redis's
// script-specific error texts, read-only runs (EVAL_RO, `no-writes`), the script time limit, and
// Redis's framing of uncaught errors. Function libraries (function-libraries.ts) run in the same
// sandbox: their code once at FUNCTION LOAD to register, then their functions at FCALL. A run that
// a JS exception broke into (engineFailure) fails as a whole and the sandbox is replaced, so a
// half-finished VM operation can never reach later runs. Cached scripts it knows natively
// (native-scripts/) run in TypeScript instead of the VM.
import { lauxlib, lua, type LuaDebug, type LuaState, type LuaString, to_luastring } from './lua51-numbers';
import { error, type Reply } from '../../reply';
import { parseShebang, REDIS_70_SCRIPT_FLAGS, scriptSha } from '../../../../shared/script-shebang';
import type { CommandContext } from '../handler';
import { LuaSandbox } from './lua-sandbox';
import { NativeRun, RUN_ON_LUA, type NativeScript } from './native-scripts';
import { formatDouble } from '../format-double';
import { bytesToLua, luaToBytes, pushFieldTable, pushReply, replyFromLua, textField } from './lua-values';
import { exemptFromStringLimit, runWithStringLimit } from './script-string-limit';
import { runScriptCommand, timeLimitErrorText } from './script-command';
import { FunctionEnvironment, type RegisteredFunction } from './function-environment';
import type { Library } from './function-libraries';

/** Flags this engine accepts: Redis 7.0's and the newer `allow-key-locking`, which changes nothing here. */
const KNOWN_FLAGS = new Set([...REDIS_70_SCRIPT_FLAGS, 'allow-key-locking']);
const CHUNK_NAME = to_luastring('@user_script');
/** Redis's answer to EVAL_RO of a `#!lua` script not declared `no-writes`. */
const WRITE_FLAG_WITH_RO = 'ERR Can not execute a script with write flag using *_ro command.';
const LIBRARY_CHUNK_NAME = to_luastring('@user_function');
/** Redis 7.0 stops a library's code that runs longer than this while loading. */
const LIBRARY_LOAD_LIMIT_MS = 500;
const HOOK_EVERY_INSTRUCTIONS = 1000;
/** How far up the call stack the message handler looks for the script's own line. */
const MAX_FRAMES_SEARCHED = 250;

interface CompiledScript {
  readonly body: LuaString;
  readonly readOnly: boolean;
  /** Declares its flags on a `#!lua` line; then only `no-writes` lets EVAL_RO run it, as in Redis. */
  readonly hasShebang: boolean;
}

export interface RunRequest {
  readonly sha: string;
  readonly keys: readonly string[];
  readonly args: readonly string[];
  /** EVAL_RO / EVALSHA_RO. */
  readonly readOnly: boolean;
  readonly ctx: CommandContext;
}

/** What one run calls: a compiled script, or a registered function given KEYS and ARGV as parameters. */
interface Invocation {
  readonly ref: number;
  /** The script's SHA or the function's name, as Redis names it in errors. */
  readonly name: string;
  readonly chunk: LuaString;
  readonly keys: readonly string[];
  readonly args: readonly string[];
  readonly readOnly: boolean;
  readonly ctx: CommandContext;
}

function sameChunk(source: LuaString | undefined, chunk: LuaString): boolean {
  return source !== undefined && source.length === chunk.length && source.every((byte, index) => byte === chunk[index]);
}

/** The line the script was on: the innermost frame of the script's own chunk (library frames skipped). */
function scriptLine(L: LuaState, fromLevel: number, chunk: LuaString): number {
  for (let level = fromLevel; level < fromLevel + MAX_FRAMES_SEARCHED; level++) {
    const frame: LuaDebug = { currentline: 0 };
    if (!lua.lua_getstack(L, level, frame)) break;
    lua.lua_getinfo(L, to_luastring('Sl'), frame);
    if (sameChunk(frame.source, chunk) && frame.currentline > 0) return frame.currentline;
  }
  return 0;
}

export class ScriptRunner {
  private sandbox = new LuaSandbox();
  private readonly compiled = new Map<string, CompiledScript>();
  /** Registry references of the compiled functions in the current sandbox. */
  private functions = new Map<string, number>();
  /** The current sandbox's library environment and the functions registered in it, by library name. */
  private libraryEnvironment: FunctionEnvironment | undefined;
  private libraryFunctions = new Map<string, ReadonlyMap<string, number>>();
  /** Line of the script where the last uncaught error was raised, set by the message handler. */
  private errorLine = 0;
  /** The chunk whose line the message handler looks for. */
  private errorChunk: LuaString = CHUNK_NAME;

  /** `nativeScripts`: the scripts run in TypeScript instead of Lua (by SHA), or undefined to run every script on Lua. */
  constructor(
    private readonly timeLimitMs: number,
    private readonly nativeScripts?: ReadonlyMap<string, NativeScript>,
  ) {}

  has(sha: string): boolean {
    return this.compiled.has(sha);
  }

  flush(): void {
    this.compiled.clear();
    this.replaceSandbox();
  }

  /** Compiles and caches `text` under its SHA-1; answers the SHA or the compile error. */
  load(text: string): { sha: string } | { error: Reply } {
    const sha = scriptSha(text);
    if (this.compiled.has(sha)) return { sha };
    const parsed = parseShebang(text);
    if (!parsed.ok) return { error: error(parsed.error) };
    const unknown = parsed.script.flags.find((flag) => !KNOWN_FLAGS.has(flag));
    if (unknown) return { error: error(`ERR Unexpected flag in script shebang: ${unknown}`) };
    const script = { body: bytesToLua(parsed.script.body), readOnly: parsed.script.flags.includes('no-writes'), hasShebang: parsed.script.hasShebang };
    const compileError = this.compile(sha, script);
    if (compileError !== undefined) return { error: error(`ERR Error compiling script (new function): ${compileError}`) };
    this.compiled.set(sha, script);
    return { sha };
  }

  run(request: RunRequest): Reply {
    const script = this.compiled.get(request.sha);
    if (!script) return error('NOSCRIPT No matching script. Please use EVAL.');
    if (request.readOnly && script.hasShebang && !script.readOnly) return error(WRITE_FLAG_WITH_RO);
    const readOnly = request.readOnly || script.readOnly;
    const native = this.nativeScripts?.get(request.sha);
    if (native) {
      const reply = NativeRun.execute(native, new NativeRun(request, readOnly, this.timeLimitMs));
      if (reply !== RUN_ON_LUA) return reply;
    }
    const ref = this.functionRef(request.sha, script);
    return this.invoke({ ...request, ref, name: request.sha, chunk: CHUNK_NAME, readOnly });
  }

  /** Runs the function `name` of `library` (FCALL); `readOnly` for FCALL_RO and `no-writes` functions. */
  callFunction(library: Library, name: string, request: Omit<RunRequest, 'sha'>): Reply {
    const ref = this.libraryRefs(library).get(name);
    if (ref === undefined) throw new Error(`function ${name} is not registered by library ${library.name}`);
    return this.invoke({ ...request, ref, name, chunk: LIBRARY_CHUNK_NAME });
  }

  /**
   * Runs a library's code to let it register its functions (FUNCTION LOAD), in the load phase where
   * only redis.register_function and redis.log exist; answers what it registered, or Redis's error.
   * Nothing is kept: the runner registers the library's functions again when it first calls one.
   */
  registerLibrary(body: string): { readonly functions: readonly RegisteredFunction[] } | { readonly error: string } {
    const loaded = this.runLibrary(body, LIBRARY_LOAD_LIMIT_MS);
    if ('error' in loaded) return loaded;
    for (const entry of loaded.functions) lauxlib.luaL_unref(this.sandbox.L, lua.LUA_REGISTRYINDEX, entry.ref);
    return loaded;
  }

  /** Forgets a deleted or replaced library's functions in the current sandbox. */
  forgetLibrary(name: string): void {
    const refs = this.libraryFunctions.get(name);
    if (!refs) return;
    for (const ref of refs.values()) lauxlib.luaL_unref(this.sandbox.L, lua.LUA_REGISTRYINDEX, ref);
    this.libraryFunctions.delete(name);
  }

  /** The library's functions in the current sandbox, registered again after the sandbox was replaced. */
  private libraryRefs(library: Library): ReadonlyMap<string, number> {
    const known = this.libraryFunctions.get(library.name);
    if (known) return known;
    // Its code registered these functions within the load limit once; a busy moment must not break it now.
    const loaded = this.runLibrary(library.body, this.timeLimitMs);
    if ('error' in loaded) throw new Error(`a library that loaded before no longer loads: ${loaded.error}`);
    const refs = new Map(loaded.functions.map((entry) => [entry.name, entry.ref]));
    this.libraryFunctions.set(library.name, refs);
    return refs;
  }

  private runLibrary(body: string, limitMs: number): { readonly functions: readonly RegisteredFunction[] } | { readonly error: string } {
    const { sandbox } = this;
    const { L } = sandbox;
    this.libraryEnvironment ??= new FunctionEnvironment(sandbox);
    const environment = this.libraryEnvironment;
    const source = bytesToLua(body);
    if (lauxlib.luaL_loadbuffer(L, source, source.length, LIBRARY_CHUNK_NAME) !== lua.LUA_OK) {
      const message = luaToBytes(lua.lua_tolstring(L, -1)!);
      sandbox.clearStack();
      return { error: `ERR Error compiling function: ${message}` };
    }
    lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, environment.envRef);
    lua.lua_setupvalue(L, -2, 1);
    sandbox.deadline = Date.now() + limitMs;
    sandbox.timedOut = false;
    sandbox.engineFailure = undefined;
    lua.lua_sethook(L, () => sandbox.checkDeadline(), lua.LUA_MASKCOUNT, HOOK_EVERY_INSTRUCTIONS);
    try {
      const { status, registered } = environment.loadPhase(() => runWithStringLimit(() => sandbox.checkDeadline(), () => lua.lua_pcall(L, 0, 0, 0)));
      sandbox.noteStatus(status);
      const failure = sandbox.timedOut ? 'ERR FUNCTION LOAD timeout' : sandbox.engineFailure ? `ERR ${sandbox.abortMessage()}` : status === lua.LUA_OK ? undefined : this.errorText(L);
      if (failure === undefined && registered.length > 0) return { functions: registered };
      for (const entry of registered) lauxlib.luaL_unref(L, lua.LUA_REGISTRYINDEX, entry.ref);
      return { error: failure === undefined ? 'ERR No functions registered' : `ERR Error registering functions: ${failure}` };
    } finally {
      lua.lua_sethook(L, null, 0, 0);
      sandbox.clearStack();
      if (sandbox.engineFailure) this.replaceSandbox();
    }
  }

  private invoke(call: Invocation): Reply {
    const { sandbox } = this;
    const { L } = sandbox;
    const isFunction = call.chunk === LIBRARY_CHUNK_NAME;
    sandbox.deadline = Date.now() + this.timeLimitMs;
    sandbox.timedOut = false;
    sandbox.engineFailure = undefined;
    this.errorLine = 0;
    this.errorChunk = call.chunk;
    sandbox.setCallHandler((state, raiseErrors) => this.redisCall(state, raiseErrors, call.ctx, call.readOnly));
    // A function gets its keys and arguments as parameters; the globals keep none of an earlier script's.
    sandbox.setKeysAndArgv(isFunction ? undefined : call.keys, isFunction ? undefined : call.args);
    // Once over the limit, every hook call raises again and pcall re-raises (see lua-sandbox.ts).
    lua.lua_sethook(L, () => sandbox.checkDeadline(), lua.LUA_MASKCOUNT, HOOK_EVERY_INSTRUCTIONS);
    try {
      lua.lua_pushjsfunction(L, this.messageHandler);
      const handler = lua.lua_gettop(L);
      lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, call.ref);
      if (isFunction) {
        sandbox.pushArray(call.keys);
        sandbox.pushArray(call.args);
      } else sandbox.resetEnvironment();
      const status = runWithStringLimit(() => sandbox.checkDeadline(), () => lua.lua_pcall(L, isFunction ? 2 : 0, 1, handler));
      sandbox.noteStatus(status);
      const where = `script: ${call.name}, on ${luaToBytes(call.chunk)}:${this.errorLine}.`;
      if (sandbox.timedOut) {
        return error(timeLimitErrorText(call.name, this.timeLimitMs));
      }
      if (sandbox.engineFailure) return error(`ERR ${sandbox.abortMessage()} ${where}`);
      return status === lua.LUA_OK ? replyFromLua(L, -1) : error(`${this.errorText(L)} ${where}`);
    } finally {
      lua.lua_sethook(L, null, 0, 0);
      sandbox.clearStack();
      if (sandbox.engineFailure) this.replaceSandbox();
    }
  }

  /** The compiled function in the current sandbox, compiled again after the sandbox was replaced. */
  private functionRef(sha: string, script: CompiledScript): number {
    const compiled = this.functions.get(sha);
    if (compiled !== undefined) return compiled;
    const failure = this.compile(sha, script);
    if (failure !== undefined) throw new Error(`a script that compiled before no longer compiles: ${failure}`);
    return this.functions.get(sha)!;
  }

  private compile(sha: string, script: CompiledScript): string | undefined {
    const { L } = this.sandbox;
    if (lauxlib.luaL_loadbuffer(L, script.body, script.body.length, CHUNK_NAME) !== lua.LUA_OK) {
      const message = luaToBytes(lua.lua_tolstring(L, -1)!);
      this.sandbox.clearStack();
      return message;
    }
    this.functions.set(sha, lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX));
    return undefined;
  }

  private replaceSandbox(): void {
    this.sandbox = new LuaSandbox();
    this.functions = new Map();
    this.libraryEnvironment = undefined;
    this.libraryFunctions = new Map();
  }

  /** Notes where the script was when an uncaught error was raised; the error value passes unchanged. */
  private readonly messageHandler = (L: LuaState): number => {
    this.errorLine = scriptLine(L, 1, this.errorChunk);
    return 1;
  };

  /**
   * An uncaught error's text as Redis words it: a table's `err` text (or `ERR unknown error`, what
   * Redis answers from 7.2.10 / 7.4.5 on, where 7.0 crashes), any other value as `ERR <text>`; the
   * caller adds the script and line.
   */
  private errorText(L: LuaState): string {
    if (lua.lua_type(L, -1) !== lua.LUA_TTABLE) return `ERR ${luaToBytes(lauxlib.luaL_tolstring(L, -1))}`;
    const text = textField(L, 'err') ?? 'ERR unknown error';
    return text.startsWith('-') ? text.slice(1) : text;
  }

  private redisCall(L: LuaState, raiseErrors: boolean, ctx: CommandContext, readOnly: boolean): number {
    const count = lua.lua_gettop(L);
    if (count === 0) return this.fail(L, raiseErrors, 'ERR Please specify at least one argument for this redis lib call');
    const args: string[] = [];
    for (let index = 1; index <= count; index++) {
      const type = lua.lua_type(L, index);
      // Redis 7.0 writes number arguments with `%.17g` (20000, 0.30000000000000004).
      if (type === lua.LUA_TNUMBER) args.push(formatDouble(lua.lua_tonumber(L, index)));
      else if (type === lua.LUA_TSTRING) args.push(luaToBytes(lua.lua_tolstring(L, index)!));
      else return this.fail(L, raiseErrors, 'ERR Lua redis lib command arguments must be strings or integers');
    }
    const reply = runScriptCommand(args, ctx, readOnly);
    if (reply.kind === 'error') return this.fail(L, raiseErrors, reply.message);
    exemptFromStringLimit(() => pushReply(L, reply));
    return 1;
  }

  /** redis.pcall answers `{err=...}`; redis.call raises it (runtimeError adds the script and line). */
  private fail(L: LuaState, raiseErrors: boolean, message: string): number {
    pushFieldTable(L, 'err', message);
    return raiseErrors ? lua.lua_error(L) : 1;
  }
}
