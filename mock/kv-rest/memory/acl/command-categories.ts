// ACL categories (`+@read`, `-@dangerous`, `+@geo` ...) as Redis 7.0 files its commands and
// subcommands, read from its own metadata (generated/redis-7.0-commands.json). Commands newer than
// Redis 7.0 are not in that file: their categories come from the spec's flags (read, write, admin
// and dangerous, pubsub) until a newer Redis's metadata is generated.
import { allCommands, type CommandSpec } from '../../command-table';
import { redisCommandInfo, redisCommandNames } from '../../key-specs';

/** A newer command's categories, from its flags. */
function categoriesFromFlags(spec: CommandSpec): readonly string[] {
  const categories: string[] = [];
  if (spec.flags.includes('readonly')) categories.push('read');
  if (spec.flags.includes('write')) categories.push('write');
  if (spec.flags.includes('pubsub')) categories.push('pubsub');
  if (spec.flags.includes('admin')) categories.push('admin', 'dangerous');
  return categories;
}

/** The engine's commands newer than Redis 7.0, subcommands included. */
function newerCommands(): CommandSpec[] {
  return allCommands()
    .flatMap((spec) => [spec, ...(spec.subcommands?.values() ?? [])])
    .filter((spec) => redisCommandInfo(spec.name) === undefined);
}

let commandNames: readonly string[] | undefined;

/** Every command name an ACL rule can name: Redis 7.0's and the engine's newer ones, `container|sub` for subcommands. */
export function allCommandNames(): readonly string[] {
  commandNames ??= [...redisCommandNames(), ...newerCommands().map((spec) => spec.name)];
  return commandNames;
}

function buildCategoryIndex(): ReadonlyMap<string, ReadonlySet<string>> {
  const index = new Map<string, Set<string>>([['all', new Set(allCommandNames())]]);
  const add = (category: string, name: string): void => {
    if (!index.has(category)) index.set(category, new Set());
    index.get(category)?.add(name);
  };
  for (const name of redisCommandNames()) for (const category of redisCommandInfo(name)?.categories ?? []) add(category, name);
  for (const spec of newerCommands()) for (const category of categoriesFromFlags(spec)) add(category, spec.name);
  return index;
}

let categoryIndex: ReadonlyMap<string, ReadonlySet<string>> | undefined;

/** The command names in a category (without the `@`), or undefined for an unknown category. */
export function commandsInCategory(category: string): ReadonlySet<string> | undefined {
  categoryIndex ??= buildCategoryIndex();
  return categoryIndex.get(category.toLowerCase());
}
