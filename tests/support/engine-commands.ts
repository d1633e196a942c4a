// Test support: runs commands as sent on an engine directly, without HTTP or the token checks. Engines
// receive resolved commands (mock/kv-rest/resolved-command.ts), so each command is resolved here as
// the REST runner resolves it; one that does not resolve (unknown, wrong arity, refused by the REST
// policy) answers the runner's error in its slot, as a /pipeline would.
import { lookupCommand } from '../../mock/kv-rest/command-table';
import type { Engine, ExecuteOptions } from '../../mock/kv-rest/engine';
import { parseRedisUrl, RedisConnection } from '../../mock/kv-rest/redis/connection';
import type { ErrorReply, Reply } from '../../mock/kv-rest/reply';
import { resolveForRest, type ResolvedCommand } from '../../mock/kv-rest/resolved-command';

/** A command resolved as the REST runner resolves it, for tests of what receives resolved commands; throws when it does not resolve. */
export function resolvedCommand(...args: string[]): ResolvedCommand {
  const command = resolveForRest(args);
  if ('kind' in command) throw new Error(command.message);
  return command;
}

/** The engine's replies to `commands`; a transaction must resolve whole (the runner discards it otherwise). */
export function executeAsSent(engine: Engine, commands: readonly (readonly string[])[], options: ExecuteOptions): Promise<Reply[]> {
  return executeResolving(engine, commands, options, async (refused) => refused.map(({ error }) => error));
}

/**
 * Redis's own replies to `commands`, for the differential suites: the resolved ones through the redis
 * engine, and the ones that do not resolve sent as they are to the redis-server at `redisUrl`, so
 * that the memory side's unknown-command and arity errors are compared with Redis's own words.
 * Redis refuses those before running anything, so sending them apart keeps every reply as it was.
 * A command the REST policy refuses has no answer of Redis's to compare with (Redis would run it).
 */
export function executeOnRedisAsSent(redis: Engine, redisUrl: string, commands: readonly (readonly string[])[], options: ExecuteOptions): Promise<Reply[]> {
  return executeResolving(redis, commands, options, async (refused) => {
    const byPolicy = refused.find(({ args }) => lookupCommand(args).ok);
    if (byPolicy) throw new Error(`the REST policy refuses ${byPolicy.args[0]}: Redis has no refusal of its own to compare with`);
    const direct = await RedisConnection.open(parseRedisUrl(redisUrl), 10_000);
    try {
      return await direct.send(refused.map(({ args }) => args));
    } finally {
      direct.close();
    }
  });
}

interface Unresolved {
  readonly args: readonly string[];
  readonly error: ErrorReply;
}

async function executeResolving(
  engine: Engine,
  commands: readonly (readonly string[])[],
  options: ExecuteOptions,
  answerUnresolved: (unresolved: readonly Unresolved[]) => Promise<Reply[]>,
): Promise<Reply[]> {
  const resolved = commands.map((args) => {
    const command = resolveForRest(args);
    return 'kind' in command ? { args, error: command } : command;
  });
  const runnable = resolved.filter((command): command is ResolvedCommand => 'spec' in command);
  const unresolved = resolved.filter((command): command is Unresolved => 'error' in command);
  if (options.transaction && unresolved.length > 0) throw new Error(`a transaction with a command that does not resolve: ${unresolved[0].error.message}`);
  const replies = runnable.length > 0 ? await engine.execute(runnable, options) : [];
  const refusals = unresolved.length > 0 ? await answerUnresolved(unresolved) : [];
  let ran = 0;
  let refused = 0;
  return resolved.map((command) => ('spec' in command ? replies[ran++] : refusals[refused++]));
}
