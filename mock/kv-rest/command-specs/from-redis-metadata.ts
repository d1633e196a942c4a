// Specs for the commands and subcommands only Redis's own metadata describes (the memory engine
// does not implement them; the redis engine serves them when its server has them): arity from
// Redis 7.0's COMMAND INFO or a newer command's hand-written metadata, and the flags the REST policy
// reads (write, readonly, admin, noscript, pubsub) from Redis's flags. Key positions and ACL
// categories are read from the same metadata where they are needed (key-specs.ts).
import type { CommandFlag, CommandSpec } from '../command-table';
import { describedCommands } from '../key-specs';
import type { RedisCommandInfo } from '../redis-command-info';
import { command } from './define';

const POLICY_FLAGS: ReadonlySet<string> = new Set<CommandFlag>(['write', 'readonly', 'admin', 'noscript', 'pubsub']);

/** The flags of Redis's own that the REST policy and scripts read. */
export const policyFlagsOf = (info: RedisCommandInfo): CommandFlag[] => info.flags.filter((flag): flag is CommandFlag => POLICY_FLAGS.has(flag));

function specOf(name: string, info: RedisCommandInfo): CommandSpec {
  return command(name, info.arity, policyFlagsOf(info), undefined, { generatedOnly: true });
}

/** Subcommands of `container` that the metadata describes and `written` does not, as specs. */
function missingSubcommands(container: string, written: ReadonlyMap<string, CommandSpec> | undefined): [string, CommandSpec][] {
  const prefix = `${container}|`;
  const missing: [string, CommandSpec][] = [];
  for (const [name, info] of describedCommands()) {
    const sub = name.slice(prefix.length);
    if (!name.startsWith(prefix) || written?.has(sub)) continue;
    missing.push([sub, specOf(name, info)]);
  }
  return missing;
}

/**
 * The hand-written specs completed with every other command and subcommand the metadata describes: a
 * hand-written container gains the subcommands it lacks, and a command only Redis describes gets
 * its spec from the metadata.
 */
export function completedWithRedisMetadata(written: readonly CommandSpec[]): CommandSpec[] {
  const byName = new Map(written.map((spec) => [spec.name, spec]));
  const completed = written.map((spec) => {
    if (!spec.subcommands) return spec;
    const missing = missingSubcommands(spec.name, spec.subcommands);
    return missing.length === 0 ? spec : { ...spec, subcommands: new Map([...spec.subcommands, ...missing]) };
  });
  for (const [name, info] of describedCommands()) {
    if (name.includes('|') || byName.has(name)) continue;
    const spec = specOf(name, info);
    const subcommands = missingSubcommands(name, undefined);
    completed.push(subcommands.length === 0 ? spec : { ...spec, subcommands: new Map(subcommands) });
  }
  return completed;
}
