// Resolves each command once (command table and REST policy), checks the token's rights and the
// limits, then runs the resolved commands on the engine. Checks that fail become error replies in
// their slot, or discard a whole transaction.
import { allowedForReadOnlyToken, noPermissionText } from '../command-table';
import type { Caller, Engine } from '../engine';
import { bulk, error, type ErrorReply, type Reply } from '../reply';
import { resolveForRest, type ResolvedCommand } from '../resolved-command';
import type { ResponseBudget } from '../response-budget';
import type { Command } from './command-input';
import { HttpError } from '../../http-kit/http-error';
import { engineFailure } from './http-error';
import type { RequestLimits } from './limits';
import type { Principal, TokenRegistry } from './tokens';

export interface RunContext {
  readonly principal: Principal;
  /** `ip:port` of the HTTP client. */
  readonly address: string;
}

type Checked = { readonly run: 'engine' | 'restToken'; readonly command: ResolvedCommand } | { readonly run: 'refused'; readonly reply: ErrorReply };

export class CommandRunner {
  constructor(
    private readonly engine: Engine,
    private readonly tokens: TokenRegistry,
    private readonly limits: RequestLimits,
  ) {}

  private check(command: Command, principal: Principal): Checked {
    const resolved = resolveForRest(command);
    if ('kind' in resolved) return { run: 'refused', reply: resolved };
    const { spec } = resolved;
    const restToken = spec.name === 'acl|resttoken';
    const mayRun = principal.readOnly ? allowedForReadOnlyToken(spec) : !restToken || principal.user === 'default';
    if (!mayRun) return { run: 'refused', reply: error(noPermissionText(spec.name)) };
    const tooLarge = this.limits.checkSize(command);
    if (tooLarge) return { run: 'refused', reply: tooLarge };
    return { run: restToken ? 'restToken' : 'engine', command: resolved };
  }

  /** `/pipeline` and single commands: every command gets its own reply, failures in their slot. */
  async runEach(commands: readonly Command[], context: RunContext): Promise<Reply[]> {
    const checked = commands.map((command) => this.check(command, context.principal));
    let runnable = 0;
    for (const entry of checked) if (entry.run !== 'refused') runnable++;
    const reserving = this.limits.reserve(runnable);
    const overLimit = reserving && (await reserving);
    const replies: Reply[] = new Array(commands.length);
    const budget = this.limits.responseBudget();
    // Consecutive engine commands go out as one batch; ACL RESTTOKEN is answered here, in order.
    let batch: number[] = [];
    for (let index = 0; index < checked.length; index++) {
      const entry = checked[index];
      if (entry.run === 'refused') replies[index] = entry.reply;
      else if (overLimit) replies[index] = overLimit;
      else if (entry.run === 'engine') batch.push(index);
      else {
        await this.runBatch(batch, checked, replies, context, budget);
        batch = [];
        replies[index] = await this.mintRestToken(entry.command);
      }
    }
    await this.runBatch(batch, checked, replies, context, budget);
    return this.bounded(replies, budget);
  }

  /** Runs the engine commands at `indexes` of `checked` in one call, their replies into those slots of `replies`. */
  private async runBatch(indexes: readonly number[], checked: readonly Checked[], replies: Reply[], context: RunContext, budget: ResponseBudget): Promise<void> {
    if (indexes.length === 0) return;
    const commands = indexes.map((index) => (checked[index] as { command: ResolvedCommand }).command);
    const results = await this.execute(commands, false, context, budget);
    for (let position = 0; position < indexes.length; position++) replies[indexes[position]] = results[position];
  }

  /** `/multi-exec`: all commands atomically, or one error when any check fails (nothing runs). */
  async runTransaction(commands: readonly Command[], context: RunContext): Promise<Reply[] | ErrorReply> {
    const resolved: ResolvedCommand[] = [];
    for (const [index, command] of commands.entries()) {
      const entry = this.check(command, context.principal);
      if (entry.run === 'refused') return error(`EXECABORT Transaction discarded because of command ${index + 1}: ${entry.reply.message}`);
      if (entry.run === 'restToken') return error(`EXECABORT Transaction discarded: ACL RESTTOKEN cannot run in a transaction`);
      resolved.push(entry.command);
    }
    const overLimit = await this.limits.reserve(commands.length);
    if (overLimit) return error(`EXECABORT Transaction discarded: ${overLimit.message}`);
    const budget = this.limits.responseBudget();
    return this.bounded(await this.execute(resolved, true, context, budget), budget);
  }

  /**
   * Opening a stream (/subscribe, /psubscribe, /monitor) is one command of the day's allowance, so a
   * client past the daily limit opens none (trust round 4, finding 4); a 400 with the limit's error.
   */
  async reserveStream(): Promise<void> {
    const overLimit = await this.limits.reserve(1);
    if (overLimit) throw new HttpError(400, overLimit.message);
  }

  /** The replies, or a 400 when the engine found them more than one response may carry. */
  private bounded(replies: Reply[], budget: ResponseBudget): Reply[] {
    const { refusal } = budget;
    if (refusal) throw new HttpError(400, refusal.message);
    return replies;
  }

  /** The engine's replies; an engine that cannot answer (store down, timeout) is a 400 `{error}`. */
  private execute(commands: readonly ResolvedCommand[], transaction: boolean, context: RunContext, budget: ResponseBudget): Promise<Reply[]> {
    return this.engine.execute(commands, { transaction, caller: callerOf(context), budget }).catch(rethrowAsEngineFailure);
  }

  private async mintRestToken(command: ResolvedCommand): Promise<Reply> {
    const [, , user, password] = command.args;
    const authenticated = await this.engine.authenticate(user, password).catch(rethrowAsEngineFailure);
    if (!authenticated) return error(`ERR Wrong password or user "${user}" does not exist`);
    return bulk(this.tokens.mintForUser(user, password));
  }
}

/** An engine that cannot answer (store down, timeout) is a 400 `{error}`; its promises never throw synchronously (engine.ts). */
function rethrowAsEngineFailure(failure: unknown): never {
  throw engineFailure(failure);
}

/** Who the engine runs a request's commands as. */
export function callerOf(context: RunContext): Caller {
  const { user, readOnly, passwordSha256, password } = context.principal;
  return { user, address: context.address, readOnly, passwordSha256, password };
}
