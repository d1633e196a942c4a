// ACL categories (`+@read`, `-@dangerous`, `+@geo`, `+@hash` ...) as Redis files its commands and
// subcommands, read from the command metadata: Redis 7.0's generated file and the hand-written
// files of the newer commands (HEXPIRE is `@hash` as in Redis 7.4). A command of the table that no
// metadata describes gets its categories from its spec's flags (read, write, admin and dangerous,
// pubsub), so that `+@read` still reaches it.
import { allCommands, type CommandSpec } from '../../command-table';
import { commandInfo, describedCommands } from '../../key-specs';

/** A command without metadata: its categories, from its flags. */
function categoriesFromFlags(spec: CommandSpec): readonly string[] {
  const categories: string[] = [];
  if (spec.flags.includes('readonly')) categories.push('read');
  if (spec.flags.includes('write')) categories.push('write');
  if (spec.flags.includes('pubsub')) categories.push('pubsub');
  if (spec.flags.includes('admin')) categories.push('admin', 'dangerous');
  return categories;
}

/** The table's commands no metadata describes, subcommands included. */
function undescribedCommands(): CommandSpec[] {
  return allCommands()
    .flatMap((spec) => [spec, ...(spec.subcommands?.values() ?? [])])
    .filter((spec) => commandInfo(spec.name) === undefined);
}

let commandNames: readonly string[] | undefined;

/** Every command name an ACL rule can name: those with metadata and the table's others, `container|sub` for subcommands. */
export function allCommandNames(): readonly string[] {
  commandNames ??= [...[...describedCommands()].map(([name]) => name), ...undescribedCommands().map((spec) => spec.name)];
  return commandNames;
}

function buildCategoryIndex(): ReadonlyMap<string, ReadonlySet<string>> {
  const index = new Map<string, Set<string>>([['all', new Set(allCommandNames())]]);
  const add = (category: string, name: string): void => {
    if (!index.has(category)) index.set(category, new Set());
    index.get(category)?.add(name);
  };
  for (const [name, info] of describedCommands()) for (const category of info.categories) add(category, name);
  for (const spec of undescribedCommands()) for (const category of categoriesFromFlags(spec)) add(category, spec.name);
  return index;
}

let categoryIndex: ReadonlyMap<string, ReadonlySet<string>> | undefined;

/** The command names in a category (without the `@`), or undefined for an unknown category. */
export function commandsInCategory(category: string): ReadonlySet<string> | undefined {
  categoryIndex ??= buildCategoryIndex();
  return categoryIndex.get(category.toLowerCase());
}
