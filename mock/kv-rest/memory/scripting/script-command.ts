// One command called from a script (redis.call / redis.pcall), resolved once here with the checks
// Redis makes before running it: known command and arity, not refused from scripts, the Read Only
// token's rights, and no writes from a read-only run; the engine then runs the resolved command.
// Shared by the Lua runner and the native scripts, so both refuse with the same words in the same order.
import { allowedForReadOnlyToken, lookupCommand, NO_PERMISSION_FROM_SCRIPT_TEXT } from '../../command-table';
import { error, type Reply } from '../../reply';
import type { CommandContext } from '../handler';

/** The command's reply, or the error Redis gives a script for it (a reply of kind `error` either way). */
export function runScriptCommand(args: readonly string[], ctx: CommandContext, readOnly: boolean): Reply {
  const found = lookupCommand(args);
  if (!found.ok) {
    return error(found.failure === 'arity' ? 'ERR Wrong number of args calling Redis command from script' : 'ERR Unknown Redis command called from script');
  }
  const { spec } = found;
  // Scripts check `noscript` before anything else, as Redis's scriptCall does.
  if (spec.unsupported || spec.flags.includes('noscript')) return error('ERR This Redis command is not allowed from script');
  // The Read Only token's scripts run only what the token may run directly, as the redis engine's
  // confined user makes Redis do; Redis checks ACLs before the read-only flag.
  if (ctx.caller.readOnly && !allowedForReadOnlyToken(spec)) return error(NO_PERMISSION_FROM_SCRIPT_TEXT);
  if (readOnly && spec.flags.includes('write')) return error('ERR Write commands are not allowed from read-only scripts.');
  return ctx.call({ args, spec });
}

/** An uncaught error as Redis frames it: the error's text, then the script and the line it was on. */
export function scriptErrorText(message: string, sha: string, line: number): string {
  return `${message.startsWith('-') ? message.slice(1) : message} script: ${sha}, on @user_script:${line}.`;
}

/** A script stopped at the time limit (Redis's BUSY, worded for a script that is no longer running). */
export function timeLimitErrorText(sha: string, timeLimitMs: number): string {
  return `BUSY script ${sha} ran longer than the script time limit of ${timeLimitMs} ms and was stopped`;
}
