// The shape of a memory-engine command: a synchronous function from arguments to a typed reply.
// Synchronous on purpose: a Lua script calls commands in the middle of its run, and a transaction
// must not yield to other requests between its commands.
import type { Caller } from '../engine';
import type { ErrorReply, Reply } from '../reply';
import type { ResolvedCommand } from '../resolved-command';
import type { Keyspace } from './keyspace';
import type { ReplyLimits } from './reply-limits';

export interface CommandContext {
  readonly db: Keyspace;
  /** Milliseconds since the epoch, fixed for one top-level command (a script sees one time). */
  readonly now: number;
  readonly caller: Caller;
  /** True while a Lua script runs; `noscript` commands are refused then. */
  readonly inScript: boolean;
  /** Commands whose reply could outgrow these check before building it (see reply-limits.ts). */
  readonly replyLimits: ReplyLimits;
  /**
   * Reserves `elements` array items and `bytes` of strings more of the reply being built, or answers
   * the error of the bound they would pass: this command's reply bound, or what the request's
   * response may still hold (response-budget.ts). Commands whose reply is a copy of much data call
   * it before building each part, so nothing past a bound is built; what a handler does not reserve
   * is counted once its reply is built.
   */
  reserveReply(elements: number, bytes: number): ErrorReply | undefined;
  /** How many more array items the reply being built may hold: walks over data stop there. */
  readonly replyElementsLeft: number;
  /**
   * Runs a command a script resolved and admitted (scripting/script-command.ts), with the engine's
   * own checks (ACL, what it implements) as the script's caller.
   */
  call(command: ResolvedCommand): Reply;
}

/** `args[0]` is the command name as sent; the handler is found by its lower-case form. */
export type CommandHandler = (args: readonly string[], ctx: CommandContext) => Reply;

export type CommandHandlers = Readonly<Record<string, CommandHandler>>;
