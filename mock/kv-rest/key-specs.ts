// The keys of a command, found from Redis's own key specs the way Redis 7.0 finds them for ACL
// checks: begin search (an index, or a keyword such as STREAMS searched forwards or backwards),
// then find keys (a range, or `numkeys` keys). A spec Redis cannot trust for these arguments (a bad
// numkeys, an `incomplete` or `unknown` spec, `variable_flags`) sends Redis to the command's own
// key finder; the few such commands are interpreted in key-finders.ts. Commands newer than Redis 7.0
// are found the same way from their hand-written metadata (newer-command-info.ts).
import commandsFile from './generated/redis-7.0-commands.json';
import type { CommandSpec } from './command-table';
import { nativeKeys } from './key-finders';
import { NEWER_COMMANDS } from './newer-command-info';
import type { KeySpec, NewerCommandInfo, RedisCommandInfo, RedisCommandsFile } from './redis-command-info';

/** One key argument and what the command does with it, in Redis's key-spec flags. */
export interface KeyReference {
  readonly position: number;
  readonly flags: readonly string[];
}

const REDIS_70_COMMANDS: ReadonlyMap<string, RedisCommandInfo> = new Map(Object.entries((commandsFile as RedisCommandsFile).commands));

/** Redis 7.0's metadata for a command or `container|sub` subcommand, if Redis 7.0 has it. */
export const redis70CommandInfo = (name: string): RedisCommandInfo | undefined => REDIS_70_COMMANDS.get(name);

/** Every command and subcommand of Redis 7.0, with its metadata. */
export const redis70Commands = (): IterableIterator<[string, RedisCommandInfo]> => REDIS_70_COMMANDS.entries();

/** Every command and subcommand name Redis 7.0 has. */
export const redis70CommandNames = (): IterableIterator<string> => REDIS_70_COMMANDS.keys();

/** Metadata of a command newer than Redis 7.0, with what it requires, if one of the hand-written files describes it. */
export const newerCommandInfo = (name: string): NewerCommandInfo | undefined => NEWER_COMMANDS.get(name);

/**
 * What a redis-server needs to run a command newer than Redis 7.0, worded for an error: a release
 * is a minimum (`Redis 7.4 or newer`), a module is needed as such (`the RedisJSON module`).
 */
export function serverNeededFor(name: string): string | undefined {
  const requires = NEWER_COMMANDS.get(name)?.requires;
  if (requires === undefined) return undefined;
  return /^Redis \d/.test(requires) ? `${requires} or newer` : requires;
}

/** Every command newer than Redis 7.0 that the hand-written files describe. */
export const newerCommands = (): IterableIterator<[string, NewerCommandInfo]> => NEWER_COMMANDS.entries();

/** Every command and subcommand with metadata: Redis 7.0's, then the newer ones. */
export function* describedCommands(): IterableIterator<[string, RedisCommandInfo]> {
  yield* REDIS_70_COMMANDS;
  yield* NEWER_COMMANDS;
}

/** The metadata of a command or subcommand: Redis 7.0's, else a newer command's. */
export const commandInfo = (name: string): RedisCommandInfo | undefined => REDIS_70_COMMANDS.get(name) ?? NEWER_COMMANDS.get(name);

/** Where a spec's keys begin (after its keyword), or undefined when the keyword is absent. */
function beginOf(spec: KeySpec, args: readonly string[]): number | undefined {
  const search = spec.beginSearch;
  if (search.type === 'index') return search.index;
  if (search.type !== 'keyword') return undefined;
  const keyword = search.keyword.toLowerCase();
  const backwards = search.startFrom < 0;
  const start = backwards ? args.length + search.startFrom : search.startFrom;
  // As Redis searches: never the last argument going forwards, never the first going backwards.
  const end = backwards ? 1 : args.length - 1;
  for (let i = start; i !== end && i >= 1 && i < args.length; i += start <= end ? 1 : -1) {
    if (args[i].toLowerCase() === keyword) return i + 1;
  }
  return undefined;
}

const INVALID = 'invalid';

/** One spec's keys; `invalid` when Redis would not trust the spec for these arguments. */
function keysOfSpec(spec: KeySpec, args: readonly string[]): KeyReference[] | typeof INVALID {
  if (spec.beginSearch.type === 'unknown' || spec.findKeys.type === 'unknown') return INVALID;
  let first = beginOf(spec, args);
  if (first === undefined) return [];
  const find = spec.findKeys;
  let last: number;
  if (find.type === 'range') {
    if (find.lastKey >= 0) last = first + find.lastKey;
    else if (find.limit === 0) last = args.length + find.lastKey;
    else last = first + Math.floor((args.length - first) / find.limit) + find.lastKey;
  } else {
    if (first + find.keyNumIndex >= args.length) return INVALID;
    const text = args[first + find.keyNumIndex];
    // Redis's strict string2ll: no sign, blank or leading zero; a negative count is invalid too.
    if (!/^(0|[1-9][0-9]*)$/.test(text)) return INVALID;
    const count = Number(text);
    first += find.firstKey;
    last = first + count - 1;
  }
  if (last >= args.length || last < first || first >= args.length) return INVALID;
  const step = find.keyStep;
  const keys: KeyReference[] = [];
  for (let i = first; i <= last; i += step) keys.push({ position: i, flags: spec.flags });
  return spec.flags.includes('incomplete') ? INVALID : keys;
}

/**
 * The keys Redis's ACL checks for `args` (a command this metadata has, arity already checked),
 * as positions with their flags; not-key specs (channels of SPUBLISH ...) are left out.
 */
export function keyReferences(name: string, info: RedisCommandInfo, args: readonly string[]): KeyReference[] {
  const specs = info.keySpecs.filter((spec) => !spec.flags.includes('not_key'));
  if (specs.length === 0) return [];
  if (!specs.some((spec) => spec.flags.includes('variable_flags'))) {
    let keys: KeyReference[] | typeof INVALID = [];
    for (const spec of specs) {
      const found = keysOfSpec(spec, args);
      keys = found === INVALID ? INVALID : keys.concat(found);
      if (keys === INVALID) break;
    }
    if (keys !== INVALID) return keys;
  }
  return nativeKeys(name, args);
}

/** Flags for a hand-written key position, from its command's flags (as the ACL read them before key specs). */
const WRITTEN: readonly string[] = ['update'];
const READ: readonly string[] = ['access'];

/**
 * The keys of a command, with what it does to each: from its key specs when the metadata (Redis
 * 7.0's, or a newer command's hand-written file) describes it; from the spec's hand-written
 * firstKey/lastKey/keyStep only for the REST API's own commands (ACL RESTTOKEN).
 */
export function keyReferencesOf(spec: CommandSpec, args: readonly string[]): KeyReference[] {
  const info = commandInfo(spec.name);
  if (info) return keyReferences(spec.name, info, args);
  if (spec.firstKey === 0) return [];
  const flags = spec.flags.includes('write') ? WRITTEN : READ;
  const last = spec.lastKey < 0 ? args.length + spec.lastKey : spec.lastKey;
  const keys: KeyReference[] = [];
  for (let i = spec.firstKey; i <= last && i < args.length; i += spec.keyStep) keys.push({ position: i, flags });
  return keys;
}
