// Compiles, caches and runs scripts in one Lua sandbox: KEYS/ARGV, redis.call/pcall with Redis's
// script-specific error texts, read-only runs (EVAL_RO, `no-writes`), the script time limit, and
// Redis's framing of uncaught errors. A run that a JS exception broke into (engineFailure) fails as
// a whole and the sandbox is replaced, so a half-finished VM operation can never reach later runs.
// Cached scripts it knows natively (native-scripts/) run in TypeScript instead of the VM.
import { lauxlib, lua, type LuaDebug, type LuaState, type LuaString, to_luastring } from './lua51-numbers';
import { error, type Reply } from '../../reply';
import { parseShebang, REDIS_70_SCRIPT_FLAGS, scriptSha } from '../../script-shebang';
import type { CommandContext } from '../handler';
import { LuaSandbox } from './lua-sandbox';
import { NativeRun, RUN_ON_LUA, type NativeScript } from './native-scripts';
import { formatDouble } from '../format-double';
import { bytesToLua, luaToBytes, pushFieldTable, pushReply, replyFromLua, textField } from './lua-values';
import { exemptFromStringLimit, runWithStringLimit } from './script-string-limit';
import { runScriptCommand, scriptErrorText, timeLimitErrorText } from './script-command';

/** Flags this engine accepts: Redis 7.0's and the newer `allow-key-locking`, which changes nothing here. */
const KNOWN_FLAGS = new Set([...REDIS_70_SCRIPT_FLAGS, 'allow-key-locking']);
const CHUNK_NAME = to_luastring('@user_script');
const HOOK_EVERY_INSTRUCTIONS = 1000;
/** How far up the call stack the message handler looks for the script's own line. */
const MAX_FRAMES_SEARCHED = 250;

interface CompiledScript {
  readonly body: LuaString;
  readonly readOnly: boolean;
}

export interface RunRequest {
  readonly sha: string;
  readonly keys: readonly string[];
  readonly args: readonly string[];
  /** EVAL_RO / EVALSHA_RO. */
  readonly readOnly: boolean;
  readonly ctx: CommandContext;
}

function isScriptChunk(source: LuaString | undefined): boolean {
  return source !== undefined && source.length === CHUNK_NAME.length && source.every((byte, index) => byte === CHUNK_NAME[index]);
}

/** The line the script was on: the innermost frame of the script's own chunk (library frames skipped). */
function scriptLine(L: LuaState, fromLevel: number): number {
  for (let level = fromLevel; level < fromLevel + MAX_FRAMES_SEARCHED; level++) {
    const frame: LuaDebug = { currentline: 0 };
    if (!lua.lua_getstack(L, level, frame)) break;
    lua.lua_getinfo(L, to_luastring('Sl'), frame);
    if (isScriptChunk(frame.source) && frame.currentline > 0) return frame.currentline;
  }
  return 0;
}

export class ScriptRunner {
  private sandbox = new LuaSandbox();
  private readonly compiled = new Map<string, CompiledScript>();
  /** Registry references of the compiled functions in the current sandbox. */
  private functions = new Map<string, number>();
  /** Line of the script where the last uncaught error was raised, set by the message handler. */
  private errorLine = 0;

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
    const script = { body: bytesToLua(parsed.script.body), readOnly: parsed.script.flags.includes('no-writes') };
    const compileError = this.compile(sha, script);
    if (compileError !== undefined) return { error: error(`ERR Error compiling script (new function): ${compileError}`) };
    this.compiled.set(sha, script);
    return { sha };
  }

  run(request: RunRequest): Reply {
    const script = this.compiled.get(request.sha);
    if (!script) return error('NOSCRIPT No matching script. Please use EVAL.');
    const readOnly = request.readOnly || script.readOnly;
    const native = this.nativeScripts?.get(request.sha);
    if (native) {
      const reply = NativeRun.execute(native, new NativeRun(request, readOnly, this.timeLimitMs));
      if (reply !== RUN_ON_LUA) return reply;
    }
    const ref = this.functionRef(request.sha, script);
    const { sandbox } = this;
    const { L } = sandbox;
    sandbox.deadline = Date.now() + this.timeLimitMs;
    sandbox.timedOut = false;
    sandbox.engineFailure = undefined;
    this.errorLine = 0;
    sandbox.setCallHandler((state, raiseErrors) => this.redisCall(state, raiseErrors, request, readOnly));
    sandbox.setKeysAndArgv(request.keys, request.args);
    // Once over the limit, every hook call raises again and pcall re-raises (see lua-sandbox.ts).
    lua.lua_sethook(L, () => sandbox.checkDeadline(), lua.LUA_MASKCOUNT, HOOK_EVERY_INSTRUCTIONS);
    try {
      lua.lua_pushjsfunction(L, this.messageHandler);
      const handler = lua.lua_gettop(L);
      lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, ref);
      sandbox.resetEnvironment();
      const status = runWithStringLimit(() => sandbox.checkDeadline(), () => lua.lua_pcall(L, 0, 1, handler));
      sandbox.noteStatus(status);
      if (sandbox.timedOut) {
        return error(timeLimitErrorText(request.sha, this.timeLimitMs));
      }
      if (sandbox.engineFailure) {
        return error(`ERR ${sandbox.abortMessage()} script: ${request.sha}, on @user_script:${this.errorLine}.`);
      }
      return status === lua.LUA_OK ? replyFromLua(L, -1) : this.runtimeError(L, request.sha);
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
  }

  /** Notes where the script was when an uncaught error was raised; the error value passes unchanged. */
  private readonly messageHandler = (L: LuaState): number => {
    this.errorLine = scriptLine(L, 1);
    return 1;
  };

  /**
   * An uncaught error, framed as Redis frames it: a table's `err` text (or `ERR unknown error`, what
   * Redis answers from 7.2.10 / 7.4.5 on, where 7.0 crashes), any other value as `ERR <text>`, then
   * the script and line.
   */
  private runtimeError(L: LuaState, sha: string): Reply {
    const message = lua.lua_type(L, -1) === lua.LUA_TTABLE ? (textField(L, 'err') ?? 'ERR unknown error') : `ERR ${luaToBytes(lauxlib.luaL_tolstring(L, -1))}`;
    return error(scriptErrorText(message, sha, this.errorLine));
  }

  private redisCall(L: LuaState, raiseErrors: boolean, request: RunRequest, readOnly: boolean): number {
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
    const reply = runScriptCommand(args, request.ctx, readOnly);
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
