// ACL categories (`+@read`, `-@dangerous` ...) derived from the command table: the family a spec
// comes from gives `@string`, `@hash` ...; its flags give `@read`, `@write`, `@admin`, `@pubsub`.
import { allCommands, type CommandSpec } from '../../command-table';
import { bitmapsCommands } from '../../command-specs/bitmaps';
import { connectionCommands } from '../../command-specs/connection';
import { genericCommands } from '../../command-specs/generic';
import { geoCommands } from '../../command-specs/geo';
import { hashesCommands } from '../../command-specs/hashes';
import { hyperloglogCommands } from '../../command-specs/hyperloglog';
import { listsCommands } from '../../command-specs/lists';
import { pubsubCommands } from '../../command-specs/pubsub';
import { scriptingCommands } from '../../command-specs/scripting';
import { setsCommands } from '../../command-specs/sets';
import { sortedSetsCommands } from '../../command-specs/sorted-sets';
import { streamsCommands } from '../../command-specs/streams';
import { stringsCommands } from '../../command-specs/strings';

const FAMILIES: readonly (readonly [readonly CommandSpec[], string])[] = [
  [stringsCommands, 'string'],
  [genericCommands, 'keyspace'],
  [hashesCommands, 'hash'],
  [listsCommands, 'list'],
  [setsCommands, 'set'],
  [sortedSetsCommands, 'sortedset'],
  [bitmapsCommands, 'bitmap'],
  [hyperloglogCommands, 'hyperloglog'],
  [streamsCommands, 'stream'],
  [geoCommands, 'geo'],
  [pubsubCommands, 'pubsub'],
  [scriptingCommands, 'scripting'],
  [connectionCommands, 'connection'],
];

/** Commands Redis files under @dangerous although they carry no admin flag. */
const DANGEROUS = new Set(['keys', 'flushdb', 'flushall', 'info', 'monitor', 'sort', 'migrate', 'restore']);

/** Every command name an ACL rule can name: top-level commands and `container|sub` subcommands. */
export function allCommandNames(): string[] {
  return allCommands().flatMap((spec) => [spec.name, ...[...(spec.subcommands?.values() ?? [])].map((sub) => sub.name)]);
}

function categoriesOf(spec: CommandSpec, family: string | undefined): string[] {
  const categories = family ? [family] : [];
  if (spec.flags.includes('readonly')) categories.push('read');
  if (spec.flags.includes('write')) categories.push('write');
  if (spec.flags.includes('pubsub')) categories.push('pubsub');
  if (spec.flags.includes('admin')) categories.push('admin', 'dangerous');
  else if (DANGEROUS.has(spec.name)) categories.push('dangerous');
  return categories;
}

function buildCategoryIndex(): ReadonlyMap<string, ReadonlySet<string>> {
  const familyOf = new Map<string, string>();
  for (const [specs, family] of FAMILIES) for (const spec of specs) familyOf.set(spec.name, family);
  const index = new Map<string, Set<string>>([['all', new Set(allCommandNames())]]);
  const add = (category: string, name: string): void => {
    if (!index.has(category)) index.set(category, new Set());
    index.get(category)?.add(name);
  };
  for (const spec of allCommands()) {
    const family = familyOf.get(spec.name);
    for (const category of categoriesOf(spec, family)) add(category, spec.name);
    for (const sub of spec.subcommands?.values() ?? []) for (const category of categoriesOf(sub, family)) add(category, sub.name);
  }
  return index;
}

let categoryIndex: ReadonlyMap<string, ReadonlySet<string>> | undefined;

/** The command names in a category (without the `@`), or undefined for an unknown category. */
export function commandsInCategory(category: string): ReadonlySet<string> | undefined {
  categoryIndex ??= buildCategoryIndex();
  return categoryIndex.get(category.toLowerCase());
}
