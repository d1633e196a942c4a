// The memory engine's dispatcher: one path for every command, from the HTTP layer or from a script.
// Commands arrive resolved (the REST runner or the script's redis.call looked them up and applied the
// REST policy and `noscript`), so here: ACL permission of the caller -> what this engine implements
// -> MONITOR feed -> the family's handler.
import { unknownCommandText } from '../command-table';
import type { Caller } from '../engine';
import { error, type ErrorReply, type Reply } from '../reply';
import type { ResolvedCommand } from '../resolved-command';
import type { ResponseBudget } from '../response-budget';
import { isErrorReply } from './arguments';
import { createAclCommandHandlers } from './commands/acl';
import { bitfieldCommandHandlers } from './commands/bitfield';
import { bitmapCommandHandlers } from './commands/bitmaps';
import { counterCommandHandlers } from './commands/counters';
import { expiryCommandHandlers } from './commands/expiry';
import { geoCommandHandlers } from './commands/geo';
import { hashFieldExpiryCommandHandlers } from './commands/hash-field-expiry';
import { hashCommandHandlers } from './commands/hashes';
import { hyperloglogCommandHandlers } from './commands/hyperloglog';
import { jsonArrayHandlers } from './commands/json-arrays';
import { jsonReadHandlers } from './commands/json-reads';
import { jsonSetHandlers } from './commands/json-set';
import { jsonWriteHandlers } from './commands/json-writes';
import { keyListingCommandHandlers } from './commands/key-listing';
import { keyCommandHandlers } from './commands/keys';
import { listCommandHandlers } from './commands/lists';
import { multiPopCommandHandlers } from './commands/multi-pops';
import { objectCommandHandlers } from './commands/object';
import { createPubSubCommandHandlers } from './commands/pubsub';
import { createServerCommandHandlers } from './commands/server';
import { setCommandHandlers } from './commands/sets';
import { sortCommandHandlers } from './commands/sort';
import { sortedSetCommandHandlers } from './commands/sorted-sets';
import { streamDeletionCommandHandlers } from './commands/stream-deletions';
import { streamCommandHandlers } from './commands/streams';
import { stringCommandHandlers } from './commands/strings';
import type { CommandContext, CommandHandler, CommandHandlers } from './handler';
import type { Keyspace } from './keyspace';
import type { MonitorFeed } from './monitor-feed';
import { DEFAULT_REPLY_LIMITS, measureReply, refusePartialReply, refuseReply, type ReplyLimits } from './reply-limits';
import { createScriptingHandlers, type ScriptingOptions } from './scripting';
import type { ServerState } from './server-state';

/** Every handler of the memory engine, by its command's table name (lower-case; `container|sub` for subcommands). */
export function createCommandHandlers(state: ServerState, scripting: ScriptingOptions = {}): CommandHandlers {
  return {
    ...stringCommandHandlers,
    ...counterCommandHandlers,
    ...keyCommandHandlers,
    ...keyListingCommandHandlers,
    ...expiryCommandHandlers,
    ...hashCommandHandlers,
    ...hashFieldExpiryCommandHandlers,
    ...listCommandHandlers,
    ...setCommandHandlers,
    ...sortedSetCommandHandlers,
    ...bitmapCommandHandlers,
    ...bitfieldCommandHandlers,
    ...hyperloglogCommandHandlers,
    ...streamCommandHandlers,
    ...streamDeletionCommandHandlers,
    ...geoCommandHandlers,
    ...multiPopCommandHandlers,
    ...sortCommandHandlers,
    ...objectCommandHandlers,
    ...jsonReadHandlers,
    ...jsonSetHandlers,
    ...jsonWriteHandlers,
    ...jsonArrayHandlers,
    ...createServerCommandHandlers(state),
    ...createAclCommandHandlers(state),
    ...createPubSubCommandHandlers(state),
    ...createScriptingHandlers(scripting),
  };
}

/** What a top-level command runs with; `call` and `inScript` are filled in by the dispatcher. */
export interface Invocation {
  readonly now: number;
  readonly caller: Caller;
  /** What the replies of the whole request may still hold (see response-budget.ts). */
  readonly budget?: ResponseBudget;
}

type Dispatch = (command: ResolvedCommand, ctx: CommandContext) => Reply;

/**
 * A command's context. Commands a script runs share its time and caller and show as `lua` in
 * MONITOR: `call` runs them in the script's own context, made once per top-level command. A class
 * rather than an object with a closure: one allocation per command instead of three. It also counts
 * what the command's handler has reserved of its reply so far (see CommandContext.reserveReply).
 */
class DispatchContext implements CommandContext {
  private scriptContext: DispatchContext | undefined;
  private reservedElements = 0;
  private reservedBytes = 0;

  constructor(
    private readonly dispatch: Dispatch,
    readonly db: Keyspace,
    readonly now: number,
    readonly caller: Caller,
    readonly inScript: boolean,
    readonly replyLimits: ReplyLimits,
    /** The request's budget; a script's own calls have none (their replies are not the response). */
    private readonly budget: ResponseBudget | undefined,
  ) {}

  call(command: ResolvedCommand): Reply {
    const scriptContext = this.inScript ? this : (this.scriptContext ??= new DispatchContext(this.dispatch, this.db, this.now, this.caller, true, this.replyLimits, undefined));
    scriptContext.reservedElements = 0;
    scriptContext.reservedBytes = 0;
    return this.dispatch(command, scriptContext);
  }

  reserveReply(elements: number, bytes: number): ErrorReply | undefined {
    const reservedElements = this.reservedElements + elements;
    const reservedBytes = this.reservedBytes + bytes;
    const refused = refusePartialReply(reservedElements, reservedBytes, this.replyLimits) ?? this.budget?.refuse(reservedElements, reservedBytes);
    if (refused) return refused;
    this.reservedElements = reservedElements;
    this.reservedBytes = reservedBytes;
    return undefined;
  }

  get replyElementsLeft(): number {
    const left = this.replyLimits.maxElements - this.reservedElements;
    return this.budget ? Math.min(left, this.budget.elementsLeft - this.reservedElements) : left;
  }

  /**
   * The reply to answer once the handler has built it: an array past the command's reply bound
   * answers that bound's error, and a reply past what the request may still hold spends the budget
   * and answers its refusal (a single string is kept, see refuseReply: the request is refused whole).
   */
  settle(reply: Reply): Reply {
    const refused = refuseReply(reply, this.replyLimits);
    if (refused || !this.budget) return refused ?? reply;
    const { elements, bytes } = measureReply(reply);
    const overBudget = this.budget.spend(Math.max(elements, this.reservedElements), Math.max(bytes, this.reservedBytes));
    return overBudget && reply.kind === 'array' ? overBudget : reply;
  }
}

export class Dispatcher {
  private readonly dispatchCommand: Dispatch = (command, ctx) => this.dispatch(command, ctx);

  constructor(
    private readonly state: ServerState,
    private readonly handlers: CommandHandlers,
    private readonly monitors: MonitorFeed,
    private readonly replyLimits: ReplyLimits = DEFAULT_REPLY_LIMITS,
  ) {}

  /**
   * Runs one command from a client. A handler that throws (a bug, or a value past what a JS string
   * can hold) answers an error in its slot instead of failing the whole request, and so does a reply
   * past the reply limits or past the request's budget.
   */
  run(command: ResolvedCommand, invocation: Invocation): Reply {
    this.state.stats.commandsProcessed++;
    try {
      const ctx = new DispatchContext(this.dispatchCommand, this.state.db, invocation.now, invocation.caller, false, this.replyLimits, invocation.budget);
      return ctx.settle(this.dispatch(command, ctx));
    } catch (failure) {
      return error(`ERR internal error while running '${command.args[0]}': ${failure instanceof Error ? failure.message : String(failure)}`);
    }
  }

  /**
   * Why a transaction's command would be refused while queueing (ACL, or not served here), as Redis
   * refuses it before EXEC, or undefined when it may be queued.
   */
  queueRefusal(command: ResolvedCommand, caller: Caller): ErrorReply | undefined {
    const admitted = this.admit(command, caller, false);
    return isErrorReply(admitted) ? admitted : undefined;
  }

  private dispatch(command: ResolvedCommand, ctx: CommandContext): Reply {
    const handler = this.admit(command, ctx.caller, ctx.inScript);
    if (isErrorReply(handler)) return handler;
    // Redis keeps administrative commands (ACL ...) out of MONITOR, since they may carry passwords.
    if (this.monitors.active && !command.spec.flags.includes('admin')) this.monitors.feed(command.args, ctx.inScript ? 'lua' : ctx.caller.address);
    return handler(command.args, ctx);
  }

  /** The command's handler once the engine's own checks before running it have passed. */
  private admit({ args, spec }: ResolvedCommand, caller: Caller, inScript: boolean): CommandHandler | ErrorReply {
    const refusal = this.state.acl.refusal(caller, spec, args, inScript);
    if (refusal) return refusal;
    // Commands only Redis's metadata describes pass the table's checks like any other, then stop here.
    if (spec.generatedOnly) return error(`ERR the memory engine does not serve '${spec.name}' (the redis engine does)`);
    return this.handlers[spec.name] ?? error(unknownCommandText(args));
  }
}
