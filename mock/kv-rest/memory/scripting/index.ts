// The memory engine's scripting commands: EVAL, EVALSHA, their _RO forms and SCRIPT LOAD/EXISTS/FLUSH,
// and the FUNCTION family (function-commands.ts), run by one real Lua VM (see lua-sandbox.ts). Each
// call of createScriptingHandlers has its own script cache and function libraries.
import { array, bulk, error, integer, OK, type Reply } from '../../reply';
import { parseInteger, isErrorReply } from '../arguments';
import type { CommandContext, CommandHandlers } from '../handler';
import { createFunctionHandlers } from './function-commands';
import { NATIVE_SCRIPTS } from './native-scripts';
import { ScriptRunner } from './script-runner';

export interface ScriptingOptions {
  /** Longest a script may run before it is stopped with a BUSY error (Redis's lua-time-limit). */
  readonly timeLimitMs?: number;
  /** Run the pinned @upstash/ratelimit scripts in TypeScript (default true; false runs every script on Lua). */
  readonly nativeScripts?: boolean;
}

export const DEFAULT_SCRIPT_TIME_LIMIT_MS = 5000;

/** Splits `<script|sha> numkeys key... arg...` into keys and args, with Redis's errors. */
function keysAndArgs(args: readonly string[]): { keys: string[]; argv: string[] } | Reply {
  const count = parseInteger(args[2]);
  if (isErrorReply(count)) return count;
  if (count < 0) return error("ERR Number of keys can't be negative");
  if (count > args.length - 3) return error("ERR Number of keys can't be greater than number of args");
  return { keys: args.slice(3, 3 + count), argv: args.slice(3 + count) };
}

export function createScriptingHandlers(options: ScriptingOptions = {}): CommandHandlers {
  const runner = new ScriptRunner(options.timeLimitMs ?? DEFAULT_SCRIPT_TIME_LIMIT_MS, options.nativeScripts === false ? undefined : NATIVE_SCRIPTS);

  const evaluate = (readOnly: boolean) => (args: readonly string[], ctx: CommandContext): Reply => {
    const split = keysAndArgs(args);
    if ('kind' in split) return split;
    const loaded = runner.load(args[1]);
    if ('error' in loaded) return loaded.error;
    return runner.run({ sha: loaded.sha, keys: split.keys, args: split.argv, readOnly, ctx });
  };

  const evaluateSha = (readOnly: boolean) => (args: readonly string[], ctx: CommandContext): Reply => {
    const split = keysAndArgs(args);
    if ('kind' in split) return split;
    // Clients send the SHA in lower case, as SCRIPT LOAD answers it: no lower-cased copy then.
    const sha = runner.has(args[1]) ? args[1] : args[1].toLowerCase();
    return runner.run({ sha, keys: split.keys, args: split.argv, readOnly, ctx });
  };

  const scriptLoad = (args: readonly string[]): Reply => {
    const loaded = runner.load(args[2]);
    return 'error' in loaded ? loaded.error : bulk(loaded.sha);
  };

  const scriptExists = (args: readonly string[]): Reply => array(args.slice(2).map((sha) => integer(runner.has(sha.toLowerCase()) ? 1 : 0)));

  const scriptFlush = (args: readonly string[]): Reply => {
    if (args.length === 3 && !/^(async|sync)$/i.test(args[2])) return error('ERR SCRIPT FLUSH only support SYNC|ASYNC option');
    runner.flush();
    return OK;
  };

  return {
    eval: evaluate(false),
    eval_ro: evaluate(true),
    evalsha: evaluateSha(false),
    evalsha_ro: evaluateSha(true),
    'script|load': scriptLoad,
    'script|exists': scriptExists,
    'script|flush': scriptFlush,
    ...createFunctionHandlers(runner),
  };
}
