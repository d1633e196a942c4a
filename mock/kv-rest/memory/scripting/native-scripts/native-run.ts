// What a native script sees while it runs: KEYS and ARGV, redis.call with the same checks, MONITOR
// lines and error framing as a Lua script's (script-command.ts), and read-only looks at the keyspace
// so a script can decide, before it calls anything, that its inputs are ones it reproduces exactly.
import { error, type Reply } from '../../../reply';
import type { CommandContext } from '../../handler';
import type { StoredValue } from '../../keyspace';
import { runScriptCommand, scriptErrorText, timeLimitErrorText } from '../script-command';
import type { RunRequest } from '../script-runner';
import { plainNumber } from './lua-numbers';

/** Returned by a native script, before it called anything, to have the Lua script run instead. */
export const RUN_ON_LUA = Symbol('run on Lua');

export type NativeScript = (run: NativeRun) => Reply | typeof RUN_ON_LUA;

/** A redis.call that failed: the script stops, as an uncaught Lua error would stop it. */
class ScriptFailure extends Error {
  override readonly name = 'ScriptFailure';
}

/** A Lua value as redis.call hands it to a script: false for nil, a number for an integer. */
export type CallValue = string | number | false | { ok: string } | readonly CallValue[];

function luaValue(reply: Reply): CallValue {
  switch (reply.kind) {
    case 'bulk':
      return reply.value;
    case 'integer':
      return Number(reply.value);
    case 'simple':
      return { ok: reply.value };
    case 'array':
      return reply.items.map(luaValue);
    default:
      return false;
  }
}

export class NativeRun {
  readonly sha: string;
  readonly keys: readonly string[];
  readonly argv: readonly string[];
  private readonly ctx: CommandContext;
  /** When a script that loops must stop (epoch ms): the time limit from the command's start, as the Lua runner counts it. */
  private readonly deadline: number;

  /** `readOnly`: the run's own (EVAL_RO) or the script's (`no-writes`); write commands are refused. */
  constructor(
    request: RunRequest,
    private readonly readOnly: boolean,
    private readonly timeLimitMs: number,
  ) {
    ({ sha: this.sha, keys: this.keys, args: this.argv, ctx: this.ctx } = request);
    // The command's own time, read when it started, rather than one more clock reading per run.
    this.deadline = this.ctx.now + timeLimitMs;
  }

  /** Runs a script and turns a failed call into the error reply Lua's runner would give. */
  static execute(script: NativeScript, run: NativeRun): Reply | typeof RUN_ON_LUA {
    try {
      return script(run);
    } catch (failure) {
      if (failure instanceof ScriptFailure) return error(failure.message);
      throw failure;
    }
  }

  /** `redis.call(...)` on line `line` of the script: its value, or the script stops with the error. */
  call(line: number, ...args: string[]): CallValue {
    return luaValue(this.callReply(line, args));
  }

  /** The same call, answering the reply as is (for values a script returns unchanged). */
  callReply(line: number, args: readonly string[]): Reply {
    const reply = runScriptCommand(args, this.ctx, this.readOnly);
    if (reply.kind === 'error') throw new ScriptFailure(scriptErrorText(reply.message, this.sha, line));
    return reply;
  }

  /** For scripts that loop: stops the run with the time limit's BUSY error once past its deadline. */
  checkTimeLimit(): void {
    if (Date.now() > this.deadline) throw new ScriptFailure(timeLimitErrorText(this.sha, this.timeLimitMs));
  }

  /**
   * The live value at `key`, changing nothing: an expired key stays in place (to be removed by the
   * command that reaches it, if the script gets that far), since DBSIZE counts it until then.
   */
  private peek(key: string): StoredValue | undefined {
    const deadline = this.ctx.db.deadline(key);
    return deadline !== undefined && deadline <= this.ctx.now ? undefined : this.ctx.db.lookup(key, this.ctx.now);
  }

  /** A look at `key` that runs no command: its string, or undefined when it is missing or not a string. */
  peekString(key: string): string | undefined {
    const value = this.peek(key);
    return value?.type === 'string' ? value.value : undefined;
  }

  /** A look at `key` that runs no command: its hash fields, or undefined when it is missing or not a hash. */
  peekHash(key: string): ReadonlyMap<string, string> | undefined {
    const value = this.peek(key);
    return value?.type === 'hash' ? value.fields : undefined;
  }

  /** A look at `key` that runs no command: `member`'s score, or undefined when it has none or `key` is not a sorted set. */
  peekScore(key: string, member: string): number | undefined {
    const value = this.peek(key);
    return value?.type === 'zset' ? value.zset.score(member) : undefined;
  }

  /**
   * False when `key` holds a string that is not a plain numeral (lua-numbers.ts), which Lua would read
   * its own way. A missing key, or one of another type (its GET fails with WRONGTYPE), is fine.
   */
  holdsPlainNumberOrNothing(key: string): boolean {
    const text = this.peekString(key);
    return text === undefined || plainNumber(text) !== undefined;
  }
}
