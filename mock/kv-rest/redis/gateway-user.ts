// The redis engine's confinement: the REST API's tokens reach Redis as ACL users of the engine's
// own that may run exactly the commands the REST policy serves (rest-policy.ts applied to every
// command of the table, command-table.ts), so Redis itself refuses the rest, inside scripts too:
// `redis.call('SELECT', 3)`, SWAPDB, MIGRATE (which makes redis-server connect anywhere), RESTORE,
// DEBUG, CONFIG, MODULE, SHUTDOWN, and FUNCTION LOAD, which the policy refuses on this engine only. The
// Standard token's user may run what REST serves; the Read Only token's user only what that token
// may run, so its EVAL_RO scripts cannot run KEYS, SCAN, INFO or PUBLISH either. Users that REST
// callers create with ACL SETUSER get the Standard token's refusals appended to their rules, and
// may not use selectors (a selector's rights would add to the refusals instead of being limited).
// None of them may write the engine's own key names (private-keys.ts).
import { derivedSecret } from '../derived-secrets';
import { allCommands, allowedForReadOnlyToken, type CommandSpec } from '../command-table';
import { error, type ErrorReply, type Reply } from '../reply';
import type { ResolvedCommand } from '../resolved-command';
import { redisEngineRefusalOf } from '../rest-policy';
import type { RedisAddress } from './connection';
import { BEYOND_THE_DATABASE } from './database-confinement';
import { confineKeyRules, READ_ALL_WRITE_OUTSIDE_PRIVATE_KEYS } from './private-keys';

/** The engine's Redis users, for the Standard token and for the Read Only token. */
export const GATEWAY_USER = 'kv-rest-gateway';
export const READER_USER = 'kv-rest-reader';

/**
 * The password of the engine's two users: derived from the Redis URL's credentials, which every REST
 * server in front of that Redis has, so all of them and every restart add the same one (ACL SETUSER
 * `>password` of a password the user has changes nothing) and a SIGKILL leaves nothing behind. One
 * who can compute it already holds the URL's credentials, which administer the Redis; without a
 * password in the URL, the Redis lets anyone who reaches it in as its URL user anyway.
 */
export function gatewayPasswordFor(address: RedisAddress): string {
  return derivedSecret(`${address.user ?? ''}\0${address.password ?? ''}`, 'redis engine users password').toString('hex');
}

/** Commands the REST API serves through its own routes (streams, /multi-exec) rather than as commands. */
const ROUTE_COMMANDS = ['subscribe', 'psubscribe', 'unsubscribe', 'punsubscribe', 'multi', 'exec', 'discard', 'ping'];
/** Routes the Read Only token may not use. */
const STANDARD_ROUTE_COMMANDS = ['monitor'];

/** What a token may run: top-level names and `container|sub` names, lower case. */
function restCommands(readOnly: boolean): { readonly names: ReadonlySet<string>; readonly containers: ReadonlySet<string> } {
  const names = new Set<string>(readOnly ? ROUTE_COMMANDS : [...ROUTE_COMMANDS, ...STANDARD_ROUTE_COMMANDS]);
  const containers = new Set<string>();
  const served = (spec: CommandSpec): boolean =>
    !spec.unsupported && !BEYOND_THE_DATABASE.has(spec.name) && redisEngineRefusalOf(spec.name) === undefined && (!readOnly || allowedForReadOnlyToken(spec));
  for (const spec of allCommands()) {
    if (spec.subcommands) {
      containers.add(spec.name);
      for (const sub of spec.subcommands.values()) if (served(sub)) names.add(sub.name);
    } else if (served(spec)) names.add(spec.name);
  }
  return { names, containers };
}

/** Redis's own command names: top-level ones, and the subcommands of the containers REST serves. */
export interface RedisCommandNames {
  readonly topLevel: readonly string[];
  /** `container|sub` names, by container. */
  readonly subcommands: ReadonlyMap<string, readonly string[]>;
}

/** The commands to ask Redis for: `COMMAND LIST`, then `COMMAND INFO` of the containers REST serves. */
export function containersToDescribe(): string[] {
  return [...restCommands(false).containers];
}

/** Reads the replies of `COMMAND LIST` and `COMMAND INFO <containers...>`. */
export function readCommandNames(list: Reply, info: Reply): RedisCommandNames {
  const topLevel = list.kind === 'array' ? list.items.flatMap((item) => (item.kind === 'bulk' ? [item.value.toLowerCase()] : [])) : [];
  const subcommands = new Map<string, string[]>();
  if (info.kind === 'array') {
    for (const entry of info.items) {
      if (entry.kind !== 'array' || entry.items[0]?.kind !== 'bulk') continue;
      const subs = entry.items[9];
      const names = subs?.kind === 'array' ? subs.items.flatMap((sub) => (sub.kind === 'array' && sub.items[0]?.kind === 'bulk' ? [sub.items[0].value.toLowerCase()] : [])) : [];
      subcommands.set(entry.items[0].value.toLowerCase(), names);
    }
  }
  return { topLevel, subcommands };
}

export interface Confinement {
  /** ACL rules of the user, after its name: it may run what the token may run, nothing else. */
  readonly rules: readonly string[];
  /** The other commands of this Redis, as rules that refuse them. */
  readonly refusals: readonly string[];
}

/** A token's user's rules and the refusals, for the commands this Redis has. */
export function confinementFor(redis: RedisCommandNames, password: string, readOnly: boolean): Confinement {
  const { names, containers } = restCommands(readOnly);
  const allowed: string[] = [];
  const refusals: string[] = [];
  for (const name of redis.topLevel) {
    const subcommands = redis.subcommands.get(name) ?? [];
    // A container whose subcommands Redis did not list is refused whole.
    if (containers.has(name) && subcommands.length > 0) {
      for (const sub of subcommands) (names.has(sub) ? allowed : refusals).push(sub);
    } else (names.has(name) ? allowed : refusals).push(name);
  }
  return {
    rules: ['on', `>${password}`, ...READ_ALL_WRITE_OUTSIDE_PRIVATE_KEYS, '&*', '-@all', ...allowed.map((name) => `+${name}`)],
    refusals: refusals.map((name) => `-${name}`),
  };
}

/** The users an ACL SETUSER or ACL DELUSER changes; none for other commands. */
export function aclTargets({ args, spec }: ResolvedCommand): readonly string[] {
  if (spec.name === 'acl|setuser') return [args[2]];
  return spec.name === 'acl|deluser' ? args.slice(2) : [];
}

/**
 * The command to send for a REST caller's ACL SETUSER or ACL DELUSER, or the error that refuses
 * it: the engine's own users (its gateway, the user it administers Redis with) and existing users
 * not created through the REST API (`foreignUsers`) are not the REST API's to change, selectors are refused, and key rules may not reach the engine's own keys
 * (private-keys.ts). Other commands are returned unchanged.
 */
export function confineAclCommand(command: ResolvedCommand, refusals: readonly string[], engineUsers: ReadonlySet<string>, foreignUsers: ReadonlySet<string>): readonly string[] | ErrorReply {
  const { args, spec } = command;
  if (spec.name !== 'acl|setuser' && spec.name !== 'acl|deluser') return args;
  const targets = aclTargets(command);
  const own = targets.find((user) => engineUsers.has(user));
  if (own !== undefined) return error(`ERR the user '${own}' belongs to the REST server itself and cannot be changed through the REST API`);
  const foreign = targets.find((user) => foreignUsers.has(user));
  if (foreign !== undefined) return error(`ERR the user '${foreign}' was not created through the REST API and cannot be changed through it`);
  if (spec.name === 'acl|deluser') return args;
  if (args.slice(3).some((rule) => rule.startsWith('('))) return error('ERR ACL selectors are not available through the REST API');
  const rules = confineKeyRules(args.slice(3));
  return 'kind' in rules ? rules : [...args.slice(0, 3), ...rules, ...refusals];
}
