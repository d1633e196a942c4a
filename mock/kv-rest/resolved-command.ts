// A command resolved once: the command as sent with the command table's entry that applies to it.
// The REST runner resolves each command it is sent, and a script each redis.call; engines receive
// resolved commands and read the entry's flags and name from there, so that, as in Redis's
// processCommand, one lookup serves every later check (REST policy, token rights, ACL, MONITOR, the
// engine's own implementation) and each check's error is worded in one place.
import { lookupCommand, notAvailableText, type CommandSpec } from './command-table';
import { error, type ErrorReply } from './reply';

export interface ResolvedCommand {
  /** The command as sent, name first (any case). */
  readonly args: readonly string[];
  /** The table's entry for it (its subcommand's, for containers), with the REST policy applied. */
  readonly spec: CommandSpec;
}

/**
 * The command a REST caller sent, resolved, or the error the REST API answers in its slot: unknown
 * command, wrong arity, or refused by the REST policy.
 */
export function resolveForRest(args: readonly string[]): ResolvedCommand | ErrorReply {
  const found = lookupCommand(args);
  if (!found.ok) return error(found.error);
  if (found.spec.unsupported) return error(notAvailableText(args[0], found.spec.unsupported));
  return { args, spec: found.spec };
}
