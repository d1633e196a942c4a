// Compiles, caches and runs scripts in one Lua sandbox: KEYS/ARGV, redis.call/pcall with Redis's
// script-specific error texts, read-only runs (EVAL_RO, `no-writes`) and the script time limit.
import { lauxlib, lua, type LuaDebug, type LuaState, to_luastring } from './lua51-numbers';
import { lookupCommand } from '../../command-table';
import { error, type Reply } from '../../reply';
import { parseShebang, REDIS_70_SCRIPT_FLAGS, scriptSha } from '../../script-shebang';
import type { CommandContext } from '../handler';
import { LuaSandbox } from './lua-sandbox';
import { formatDouble } from '../format-double';
import { bytesToLua, errorFromScript, luaToBytes, pushReply, replyFromLua } from './lua-values';

/** Flags this engine accepts: Redis 7.0's and the newer `allow-key-locking`, which changes nothing here. */
const KNOWN_FLAGS = new Set([...REDIS_70_SCRIPT_FLAGS, 'allow-key-locking']);
const CHUNK_NAME = to_luastring('@user_script');
const HOOK_EVERY_INSTRUCTIONS = 1000;

interface CompiledScript {
  /** Reference to the compiled function in the Lua registry. */
  readonly ref: number;
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

export class ScriptRunner {
  private readonly sandbox = new LuaSandbox();
  private readonly compiled = new Map<string, CompiledScript>();

  constructor(private readonly timeLimitMs: number) {}

  has(sha: string): boolean {
    return this.compiled.has(sha);
  }

  flush(): void {
    this.compiled.clear();
  }

  /** Compiles and caches `text` under its SHA-1; answers the SHA or the compile error. */
  load(text: string): { sha: string } | { error: Reply } {
    const sha = scriptSha(text);
    if (this.compiled.has(sha)) return { sha };
    const parsed = parseShebang(text);
    if (!parsed.ok) return { error: error(parsed.error) };
    const unknown = parsed.script.flags.find((flag) => !KNOWN_FLAGS.has(flag));
    if (unknown) return { error: error(`ERR Unexpected flag in script shebang: ${unknown}`) };
    const { L } = this.sandbox;
    const body = bytesToLua(parsed.script.body);
    if (lauxlib.luaL_loadbuffer(L, body, body.length, CHUNK_NAME) !== lua.LUA_OK) {
      const message = luaToBytes(lua.lua_tolstring(L, -1)!);
      this.sandbox.clearStack();
      return { error: error(`ERR Error compiling script (new function): ${message}`) };
    }
    const ref = lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX);
    this.compiled.set(sha, { ref, readOnly: parsed.script.flags.includes('no-writes') });
    return { sha };
  }

  run(request: RunRequest): Reply {
    const script = this.compiled.get(request.sha);
    if (!script) return error('NOSCRIPT No matching script. Please use EVAL.');
    const { L } = this.sandbox;
    const readOnly = request.readOnly || script.readOnly;
    const deadline = Date.now() + this.timeLimitMs;
    this.sandbox.timedOut = false;
    this.sandbox.setCallHandler((state, raiseErrors) => this.redisCall(state, raiseErrors, request, readOnly));
    this.sandbox.setKeysAndArgv(request.keys, request.args);
    // Once over the limit, every hook call raises again and pcall re-raises (see lua-sandbox.ts).
    lua.lua_sethook(L, () => {
      if (this.sandbox.timedOut || Date.now() > deadline) {
        this.sandbox.timedOut = true;
        this.sandbox.raise('script time limit exceeded');
      }
    }, lua.LUA_MASKCOUNT, HOOK_EVERY_INSTRUCTIONS);
    try {
      lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, script.ref);
      const status = lua.lua_pcall(L, 0, 1, 0);
      if (this.sandbox.timedOut) {
        return error(`BUSY script ${request.sha} ran longer than the script time limit of ${this.timeLimitMs} ms and was stopped`);
      }
      return status === lua.LUA_OK ? replyFromLua(L, -1) : this.runtimeError(L, request.sha);
    } finally {
      lua.lua_sethook(L, null, 0, 0);
      this.sandbox.clearStack();
    }
  }

  /** An uncaught error: `{err=...}` tables keep their text, Lua errors get Redis's framing. */
  private runtimeError(L: LuaState, sha: string): Reply {
    if (lua.lua_type(L, -1) === lua.LUA_TTABLE) return replyFromLua(L, -1);
    const message = lua.lua_type(L, -1) === lua.LUA_TSTRING ? luaToBytes(lua.lua_tolstring(L, -1)!) : 'unknown error';
    const line = /^user_script:(\d+):/.exec(message)?.[1] ?? '0';
    return error(`ERR ${message} script: ${sha}, on @user_script:${line}.`);
  }

  private redisCall(L: LuaState, raiseErrors: boolean, request: RunRequest, readOnly: boolean): number {
    const count = lua.lua_gettop(L);
    if (count === 0) return this.fail(L, raiseErrors, request.sha, 'ERR Please specify at least one argument for this redis lib call');
    const args: string[] = [];
    for (let index = 1; index <= count; index++) {
      const type = lua.lua_type(L, index);
      // Redis 7.0 writes number arguments with `%.17g` (20000, 0.30000000000000004).
      if (type === lua.LUA_TNUMBER) args.push(formatDouble(lua.lua_tonumber(L, index)));
      else if (type === lua.LUA_TSTRING) args.push(luaToBytes(lua.lua_tolstring(L, index)!));
      else return this.fail(L, raiseErrors, request.sha, 'ERR Lua redis lib command arguments must be strings or integers');
    }
    const found = lookupCommand(args);
    let reply: Reply;
    if (!found.ok) {
      reply = error(found.error.startsWith('ERR wrong number') ? 'ERR Wrong number of args calling Redis command from script' : 'ERR Unknown Redis command called from script');
    } else if (found.spec.unsupported || found.spec.flags.includes('noscript')) {
      reply = error('ERR This Redis command is not allowed from script');
    } else if (readOnly && found.spec.flags.includes('write')) {
      reply = error('ERR Write commands are not allowed from read-only scripts.');
    } else {
      reply = request.ctx.call(args);
    }
    if (reply.kind === 'error') return this.fail(L, raiseErrors, request.sha, reply.message);
    pushReply(L, reply);
    return 1;
  }

  /** redis.pcall answers `{err=...}`; redis.call raises it, framed with the script and line. */
  private fail(L: LuaState, raiseErrors: boolean, sha: string, message: string): number {
    if (!raiseErrors) {
      pushReply(L, errorFromScript(message));
      return 1;
    }
    const where: LuaDebug = { currentline: 0 };
    const line = lua.lua_getstack(L, 1, where) && lua.lua_getinfo(L, to_luastring('l'), where) ? where.currentline : 0;
    pushReply(L, error(`${message} script: ${sha}, on @user_script:${line}.`));
    return lua.lua_error(L);
  }
}
