// The command table: every command the key-value server knows, described once, as data: the
// hand-written specs of what the memory engine implements, completed with every other command and
// subcommand of Redis 7.0 from Redis's own metadata and the newer ones from their hand-written
// metadata (beyond-redis-7.0/; the redis engine serves those its server has), with the
// REST policy (rest-policy.ts) applied to all of them. A command is looked up here once (by the REST
// runner through resolved-command.ts, or by a script's redis.call) and its entry travels with it to
// the engine; the texts of the checks made against the table (unknown command, arity, unknown
// subcommand, NOPERM, not available) are worded here once. Flags, key positions and ACL categories
// come from Redis's own metadata (key-specs.ts) for every command Redis 7.0 has, so a written spec's
// flags describe only commands newer than that. Adding a command to the memory engine is one entry
// plus its handler, under the entry's name (`container|sub` for a subcommand).
import { bitmapsCommands } from './command-specs/bitmaps';
import { connectionCommands } from './command-specs/connection';
import { completedWithRedisMetadata, policyFlagsOf } from './command-specs/from-redis-metadata';
import { geoCommands } from './command-specs/geo';
import { genericCommands } from './command-specs/generic';
import { hashesCommands } from './command-specs/hashes';
import { hyperloglogCommands } from './command-specs/hyperloglog';
import { jsonCommands } from './command-specs/json';
import { listsCommands } from './command-specs/lists';
import { pubsubCommands } from './command-specs/pubsub';
import { scriptingCommands } from './command-specs/scripting';
import { serverCommands } from './command-specs/server';
import { setsCommands } from './command-specs/sets';
import { sortCommands } from './command-specs/sort';
import { sortedSetsCommands } from './command-specs/sorted-sets';
import { streamsCommands } from './command-specs/streams';
import { stringsCommands } from './command-specs/strings';
import { commandInfo } from './key-specs';
import { restAddedFlags, restRefusal } from './rest-policy';

export type CommandFlag =
  /** Modifies the keyspace. */
  | 'write'
  /** Only reads. Read Only tokens may run these unless also `powerful`. */
  | 'readonly'
  /** Reads that are too costly for a public Read Only token (KEYS, SCAN, ...); set by the REST policy. */
  | 'powerful'
  /** Server administration (FLUSHALL, ACL, CONFIG ...): never for Read Only tokens. */
  | 'admin'
  /** Refused inside Lua scripts. */
  | 'noscript'
  /** Pub/sub; the REST API serves these through its own routes. */
  | 'pubsub';

export interface CommandSpec {
  /** Lower-case name; subcommands are written `container|sub` (`script|load`). */
  readonly name: string;
  /** Redis's convention, counting the name: `n` exactly n arguments, `-n` at least n. */
  readonly arity: number;
  readonly flags: readonly CommandFlag[];
  /**
   * Key positions in Redis's convention (0 = no keys; lastKey -1 = the last argument). Keys are read
   * from Redis's own key specs (key-specs.ts); these serve only commands newer than Redis 7.0.
   */
  readonly firstKey: number;
  readonly lastKey: number;
  readonly keyStep: number;
  /** Present when the REST API refuses the command (set by the REST policy); the text says why. */
  readonly unsupported?: string;
  /** Described only by Redis's metadata: the redis engine serves it, the memory engine does not implement it. */
  readonly generatedOnly?: true;
  /** Subcommands of a container command (SCRIPT, ACL, ...), by lower-case subcommand name. */
  readonly subcommands?: ReadonlyMap<string, CommandSpec>;
  /**
   * The error for a user not allowed every key, when this call reads keys it derives at run time
   * (SORT's BY and GET patterns); undefined when the call reads only its named keys.
   */
  readonly needsEveryKey?: (args: readonly string[]) => string | undefined;
  /** Why the REST API refuses this call of a command it otherwise serves (XREAD with BLOCK). */
  readonly refusalFor?: (args: readonly string[]) => string | undefined;
}

const WRITTEN: readonly CommandSpec[] = [
  ...connectionCommands,
  ...pubsubCommands,
  ...scriptingCommands,
  ...serverCommands,
  ...stringsCommands,
  ...genericCommands,
  ...hashesCommands,
  ...listsCommands,
  ...setsCommands,
  ...sortedSetsCommands,
  ...bitmapsCommands,
  ...hyperloglogCommands,
  ...streamsCommands,
  ...geoCommands,
  ...sortCommands,
  ...jsonCommands,
];

/**
 * The spec with Redis's own flags (from the generated metadata, or the hand-written beyond-7.0 files), the
 * REST policy's added flags and its refusal, its subcommands too.
 */
function withPolicy(spec: CommandSpec): CommandSpec {
  const unsupported = restRefusal(spec.name);
  const info = commandInfo(spec.name);
  const flags: readonly CommandFlag[] = [...(info ? policyFlagsOf(info) : spec.flags), ...restAddedFlags(spec.name)];
  const subcommands = spec.subcommands && new Map([...spec.subcommands].map(([name, sub]) => [name, withPolicy(sub)]));
  return { ...spec, flags, ...(unsupported === undefined ? {} : { unsupported }), ...(subcommands ? { subcommands } : {}) };
}

const SPECS: readonly CommandSpec[] = completedWithRedisMetadata(WRITTEN).map(withPolicy);

/**
 * Each command by its lower-case name and by its upper-case one (how clients and scripts write it),
 * so that the usual spellings are found without lower-casing the name first; any other spelling is
 * lower-cased once.
 */
const TABLE: ReadonlyMap<string, CommandSpec> = new Map(SPECS.flatMap((spec) => [[spec.name, spec], [spec.name.toUpperCase(), spec]]));

/** Every top-level command of the table. */
export const allCommands = (): readonly CommandSpec[] => SPECS;

/** Redis's answer to a command it does not know, with the first arguments it was given. */
export const unknownCommandText = (args: readonly string[]): string => `ERR unknown command '${args[0]}', with args beginning with: ${formatArgs(args.slice(1))}`;

/** Redis's answer to a call with the wrong number of arguments (`name` lower-case, `container|sub` for subcommands). */
export const wrongArityText = (name: string): string => `ERR wrong number of arguments for '${name}' command`;

/** Redis's answer to a subcommand its container does not have (Redis shows its first 128 characters). */
export const unknownSubcommandText = (sub: string, container: string): string => `ERR unknown subcommand '${sub.slice(0, 128)}'. Try ${container.toUpperCase()} HELP.`;

/** Redis's answer to a container that does not know the subcommand or not with these arguments (XGROUP, XINFO, FUNCTION). */
export const unknownSubcommandOrArityText = (sub: string, container: string): string =>
  `ERR unknown subcommand or wrong number of arguments for '${sub.slice(0, 128)}'. Try ${container.toUpperCase()} HELP.`;

/** An ACL refusal of a command (`name` as Redis names it: lower-case, `container|sub`), on both engines and the REST side. */
export const noPermissionText = (name: string): string => `NOPERM this user has no permissions to run the '${name}' command`;

/** The same refusal for a command a script calls, as Redis words it there. */
export const NO_PERMISSION_FROM_SCRIPT_TEXT = "ERR The user executing the script can't run this command or subcommand";

/** The REST policy's refusal of a command, with its reason (the same words on both engines). */
export const notAvailableText = (command: string, reason: string): string => `ERR Command is not available: '${command}' (${reason})`;

export type Lookup =
  | { readonly ok: true; readonly spec: CommandSpec }
  /** `unknown`: no such command or subcommand; `arity`: known, but not with this many arguments. */
  | { readonly ok: false; readonly failure: 'unknown' | 'arity'; readonly error: string };

/**
 * Finds the spec that applies to a command (its subcommand's, for containers) and checks arity,
 * so that both engines answer unknown commands and wrong arity the same way Redis words them.
 */
export function lookupCommand(args: readonly string[]): Lookup {
  const spec = TABLE.get(args[0]) ?? TABLE.get(args[0].toLowerCase());
  if (!spec) return { ok: false, failure: 'unknown', error: unknownCommandText(args) };
  const { name } = spec;
  if (!arityMatches(spec.arity, args.length)) return { ok: false, failure: 'arity', error: wrongArityText(name) };
  if (!spec.subcommands) return withRefusal(spec, args);
  // Bare COMMAND (all of Redis's metadata in one reply) is the one container Redis runs alone; the
  // REST API asks for a subcommand, so that the redis engine's users allow exactly what REST runs.
  if (args.length < 2) return { ok: false, failure: 'arity', error: `${wrongArityText(name)}: the REST API needs a subcommand (try ${name.toUpperCase()} HELP)` };
  const sub = spec.subcommands.get(args[1].toLowerCase());
  if (!sub) return { ok: false, failure: 'unknown', error: unknownSubcommandText(args[1], name) };
  if (!arityMatches(sub.arity, args.length)) return { ok: false, failure: 'arity', error: wrongArityText(sub.name) };
  return withRefusal(sub, args);
}

/** The lookup answering each spec as it is, built once: most calls of most commands (a script's GET) need nothing else. */
const FOUND = new Map<CommandSpec, Lookup>();

function found(spec: CommandSpec): Lookup {
  let lookup = FOUND.get(spec);
  if (lookup === undefined) FOUND.set(spec, (lookup = { ok: true, spec }));
  return lookup;
}

/** The spec, marked unsupported for this call when its arguments ask for what REST refuses. */
function withRefusal(spec: CommandSpec, args: readonly string[]): Lookup {
  const refused = spec.refusalFor?.(args);
  return refused === undefined ? found(spec) : { ok: true, spec: { ...spec, unsupported: refused } };
}

function arityMatches(arity: number, count: number): boolean {
  return arity >= 0 ? count === arity : count >= -arity;
}

function formatArgs(args: readonly string[]): string {
  return args.slice(0, 32).map((arg) => `'${arg.slice(0, 128)}' `).join('');
}

/** Whether the Read Only token may run a command: read-only, and not one of the powerful reads. */
export function allowedForReadOnlyToken(spec: CommandSpec): boolean {
  return spec.flags.includes('readonly') && !spec.flags.includes('powerful') && !spec.flags.includes('admin');
}
