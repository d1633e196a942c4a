// The command table: every command the key-value server knows, described once, as data.
// Dispatch, arity errors, the Read Only token policy, unsupported-command answers, key extraction
// and the differential tests all read this table; adding a command is one entry plus its handler.

export type CommandFlag =
  /** Modifies the keyspace. */
  | 'write'
  /** Only reads. Read Only tokens may run these unless also `powerful`. */
  | 'readonly'
  /** Reads that are too costly for a public Read Only token (KEYS, SCAN, ...). */
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
  /** Key positions in Redis's convention (0 = no keys; lastKey -1 = the last argument). */
  readonly firstKey: number;
  readonly lastKey: number;
  readonly keyStep: number;
  /** Present when the REST API refuses the command; the text says why. */
  readonly unsupported?: string;
  /** Subcommands of a container command (SCRIPT, ACL, ...), by lower-case subcommand name. */
  readonly subcommands?: ReadonlyMap<string, CommandSpec>;
}

type KeySpec = readonly [firstKey: number, lastKey: number, keyStep: number];
const NO_KEYS: KeySpec = [0, 0, 0];
const FIRST_KEY: KeySpec = [1, 1, 1];
const ALL_KEYS: KeySpec = [1, -1, 1];

function command(name: string, arity: number, flags: readonly CommandFlag[], keys: KeySpec = NO_KEYS, extra: Partial<CommandSpec> = {}): CommandSpec {
  return { name, arity, flags, firstKey: keys[0], lastKey: keys[1], keyStep: keys[2], ...extra };
}

function container(name: string, arity: number, subcommands: readonly CommandSpec[]): CommandSpec {
  const byName = new Map(subcommands.map((sub) => [sub.name.slice(name.length + 1), sub]));
  return command(name, arity, [], NO_KEYS, { subcommands: byName });
}

const BLOCKING = 'blocking commands are not supported by the REST API';
const CONNECTION = 'only PING and ECHO are supported from the connection family';

function unsupported(name: string, arity: number, reason: string): CommandSpec {
  return command(name, arity, [], NO_KEYS, { unsupported: reason });
}

const SPECS: readonly CommandSpec[] = [
  // Connection
  command('ping', -1, ['readonly']),
  command('echo', 2, ['readonly']),
  ...['auth', 'select', 'hello', 'client', 'quit', 'reset', 'swapdb', 'wait', 'readonly', 'readwrite', 'asking'].map((name) =>
    unsupported(name, -1, CONNECTION),
  ),
  // Transactions run through /multi-exec; the commands themselves are not sent.
  unsupported('multi', 1, 'transactions are sent to /multi-exec'),
  unsupported('exec', 1, 'transactions are sent to /multi-exec'),
  unsupported('watch', -2, 'WATCH is not supported by the REST API'),
  unsupported('unwatch', 1, 'UNWATCH is not supported by the REST API'),
  unsupported('discard', 1, 'DISCARD is not supported by the REST API'),
  // Blocking
  unsupported('blpop', -3, BLOCKING),
  unsupported('brpop', -3, BLOCKING),
  unsupported('brpoplpush', 4, BLOCKING),
  unsupported('blmove', 6, BLOCKING),
  unsupported('blmpop', -5, BLOCKING),
  unsupported('bzpopmax', -3, BLOCKING),
  unsupported('bzpopmin', -3, BLOCKING),
  unsupported('bzmpop', -5, BLOCKING),
  // Cluster
  unsupported('cluster', -2, 'cluster commands are not supported'),
  // Pub/sub
  command('publish', 3, ['pubsub', 'write']),
  command('subscribe', -2, ['pubsub', 'noscript'], NO_KEYS, { unsupported: 'subscribe through the /subscribe/<channel> route' }),
  command('psubscribe', -2, ['pubsub', 'noscript'], NO_KEYS, { unsupported: 'subscribe through the /psubscribe/<pattern> route' }),
  command('unsubscribe', -1, ['pubsub', 'noscript'], NO_KEYS, { unsupported: 'close the /subscribe stream to unsubscribe' }),
  command('punsubscribe', -1, ['pubsub', 'noscript'], NO_KEYS, { unsupported: 'close the /psubscribe stream to unsubscribe' }),
  container('pubsub', -2, [
    command('pubsub|channels', -2, ['pubsub', 'readonly']),
    command('pubsub|numsub', -2, ['pubsub', 'readonly']),
    command('pubsub|numpat', 2, ['pubsub', 'readonly']),
  ]),
  command('monitor', 1, ['admin', 'noscript'], NO_KEYS, { unsupported: 'monitor through the /monitor route' }),
  // Scripting (keys are given by numkeys: resolved by keysOf below)
  command('eval', -3, ['noscript', 'write']),
  command('evalsha', -3, ['noscript', 'write']),
  command('eval_ro', -3, ['noscript', 'readonly']),
  command('evalsha_ro', -3, ['noscript', 'readonly']),
  container('script', -2, [
    command('script|load', 3, ['noscript', 'write']),
    command('script|exists', -3, ['noscript', 'readonly']),
    command('script|flush', -2, ['noscript', 'write', 'admin']),
  ]),
  // ACL
  container('acl', -2, [
    command('acl|restoken', 4, ['admin', 'noscript']),
    command('acl|setuser', -3, ['admin', 'noscript']),
    command('acl|deluser', -3, ['admin', 'noscript']),
    command('acl|users', 2, ['admin', 'noscript']),
    command('acl|whoami', 2, ['noscript']),
  ]),
];

const TABLE: ReadonlyMap<string, CommandSpec> = new Map(SPECS.map((spec) => [spec.name, spec]));

/** Every top-level command of the table. */
export const allCommands = (): readonly CommandSpec[] => SPECS;

export type Lookup =
  | { readonly ok: true; readonly spec: CommandSpec }
  | { readonly ok: false; readonly error: string };

/**
 * Finds the spec that applies to a command (its subcommand's, for containers) and checks arity,
 * so that both engines answer unknown commands and wrong arity the same way Redis words them.
 */
export function lookupCommand(args: readonly string[]): Lookup {
  const name = args[0].toLowerCase();
  const spec = TABLE.get(name);
  if (!spec) return { ok: false, error: `ERR unknown command '${args[0]}', with args beginning with: ${formatArgs(args.slice(1))}` };
  if (!arityMatches(spec.arity, args.length)) return { ok: false, error: `ERR wrong number of arguments for '${name}' command` };
  if (!spec.subcommands) return { ok: true, spec };
  const sub = spec.subcommands.get(args[1].toLowerCase());
  if (!sub) return { ok: false, error: `ERR unknown subcommand '${args[1]}'. Try ${name.toUpperCase()} HELP.` };
  if (!arityMatches(sub.arity, args.length)) return { ok: false, error: `ERR wrong number of arguments for '${sub.name}' command` };
  return { ok: true, spec: sub };
}

function arityMatches(arity: number, count: number): boolean {
  return arity >= 0 ? count === arity : count >= -arity;
}

function formatArgs(args: readonly string[]): string {
  return args.slice(0, 32).map((arg) => `'${arg.slice(0, 128)}' `).join('');
}

/** The keys a command touches, from its spec (EVAL-style numkeys commands included). */
export function keysOf(spec: CommandSpec, args: readonly string[]): string[] {
  if (spec.name.startsWith('eval')) {
    const count = Number(args[2]);
    return Number.isInteger(count) && count > 0 ? args.slice(3, 3 + count) : [];
  }
  if (spec.firstKey === 0) return [];
  const last = spec.lastKey < 0 ? args.length + spec.lastKey : spec.lastKey;
  const keys: string[] = [];
  for (let i = spec.firstKey; i <= last && i < args.length; i += spec.keyStep) keys.push(args[i]);
  return keys;
}

/** Whether the Read Only token may run a command: read-only, and not one of the powerful reads. */
export function allowedForReadOnlyToken(spec: CommandSpec): boolean {
  return spec.flags.includes('readonly') && !spec.flags.includes('powerful') && !spec.flags.includes('admin');
}
