// The memory engine's ACL users: who exists, their passwords, and whether a user may run a command
// on its keys and channels. Refusals carry Redis 7.0's NOPERM texts.
import { NO_PERMISSION_FROM_SCRIPT_TEXT, noPermissionText, type CommandSpec } from '../../command-table';
import { passwordSha256Of, type Caller } from '../../engine';
import { keyReferencesOf, type KeyReference } from '../../key-specs';
import { error, type ErrorReply } from '../../reply';
import { globMatches } from '../glob';
import { applyRule, copyUser, describeUser, newUser, type AclUser } from './acl-rules';

const NO_KEY_PERMISSION = error('NOPERM this user has no permissions to access one of the keys used as arguments');
const NO_CHANNEL_PERMISSION = error('NOPERM this user has no permissions to access one of the channels used as arguments');
const noPermissionToRun = (command: string): ErrorReply => error(noPermissionText(command));
/** Inside a script Redis words the same refusals for the script's author. */
const SCRIPT_NO_COMMAND_PERMISSION = error(NO_PERMISSION_FROM_SCRIPT_TEXT);
const SCRIPT_NO_KEY_PERMISSION = error("ERR The user executing the script can't access at least one of the keys mentioned in the command arguments");
const SCRIPT_NO_CHANNEL_PERMISSION = error("ERR The user executing the script can't publish to the channel mentioned in the command");

export class AclUsers {
  private readonly users = new Map<string, AclUser>();

  constructor() {
    const defaultUser = newUser('default');
    for (const rule of ['on', 'nopass', '~*', '&*', '+@all']) applyRule(defaultUser, rule);
    this.users.set('default', defaultUser);
  }

  /** ACL SETUSER: all rules apply or none (the first invalid one is reported). */
  setUser(name: string, rules: readonly string[]): ErrorReply | undefined {
    const existing = this.users.get(name);
    const user = existing ? copyUser(existing) : newUser(name);
    for (const rule of rules) {
      const problem = applyRule(user, rule);
      if (problem) return error(`ERR Error in ACL SETUSER modifier '${rule}': ${problem}`);
    }
    this.users.set(name, user);
    return undefined;
  }

  /** ACL DELUSER: how many of the named users existed. */
  deleteUsers(names: readonly string[]): number | ErrorReply {
    if (names.includes('default')) return error("ERR The 'default' user cannot be removed");
    return names.filter((name) => this.users.delete(name)).length;
  }

  names(): string[] {
    return [...this.users.keys()].sort();
  }

  describeAll(): string[] {
    return this.names().map((name) => describeUser(this.users.get(name) as AclUser));
  }

  authenticate(name: string, password: string): boolean {
    const user = this.users.get(name);
    if (!user || !user.enabled) return false;
    return user.nopass || user.passwords.has(passwordSha256Of(password));
  }

  /**
   * Why the caller may not run the command named `command`, or undefined when it may. Each REST
   * request is checked anew, so a user deleted, disabled or whose password changed since its token
   * was minted is refused at once (a minted token follows its user and its password).
   */
  commandRefusal(caller: Caller, command: string): ErrorReply | undefined {
    const user = this.activeUser(caller);
    if ('kind' in user) return user;
    return user.commands.has(command) ? undefined : noPermissionToRun(command);
  }

  /** The command's own permission, then its keys, then (PUBLISH) its channel; worded for a script's `redis.call` when `inScript`. */
  refusal(caller: Caller, spec: CommandSpec, args: readonly string[], inScript: boolean): ErrorReply | undefined {
    const user = this.activeUser(caller);
    if ('kind' in user) return user;
    if (!user.commands.has(spec.name)) return inScript ? SCRIPT_NO_COMMAND_PERMISSION : noPermissionToRun(spec.name);
    if (!user.allKeys && !this.mayAccessKeys(user, args, keyReferencesOf(spec, args))) return inScript ? SCRIPT_NO_KEY_PERMISSION : NO_KEY_PERMISSION;
    const everyKey = spec.needsEveryKey?.(args);
    if (everyKey !== undefined && !user.keyPatterns.some(({ pattern, read }) => pattern === '*' && read)) return error(everyKey);
    if (spec.name === 'publish' && !this.mayUseChannels(user, 'channel', [args[1]])) return inScript ? SCRIPT_NO_CHANNEL_PERMISSION : NO_CHANNEL_PERMISSION;
    return undefined;
  }

  /** The caller's user while it exists, is enabled and (for a minted token) still has the token's password. */
  private activeUser(caller: Caller): AclUser | ErrorReply {
    const user = this.users.get(caller.user);
    if (!user || !user.enabled) return error(`NOPERM the user '${caller.user}' does not exist or is disabled`);
    if (caller.passwordSha256 !== undefined && !user.nopass && !user.passwords.has(caller.passwordSha256)) {
      return error(`NOPERM the password of user '${caller.user}' this token was issued for has been changed or removed`);
    }
    return user;
  }

  /** For subscriptions: channels must match one of the user's patterns; patterns must be one of them. */
  channelRefusal(caller: Caller, mode: 'channel' | 'pattern', targets: readonly string[]): ErrorReply | undefined {
    const refused = this.commandRefusal(caller, mode === 'channel' ? 'subscribe' : 'psubscribe');
    if (refused) return refused;
    return this.mayUseChannels(this.users.get(caller.user) as AclUser, mode, targets) ? undefined : NO_CHANNEL_PERMISSION;
  }

  /**
   * Each key must match one of the user's patterns that grants what the command does to that key:
   * read for an `access` key, write for an `insert`, `update` or `delete` one, either for a key whose
   * spec says neither (EXISTS, TYPE ...), as Redis 7.0 decides per key spec.
   */
  private mayAccessKeys(user: AclUser, args: readonly string[], keys: readonly KeyReference[]): boolean {
    return keys.every(({ position, flags }) => {
      const needsRead = flags.includes('access');
      const needsWrite = flags.includes('insert') || flags.includes('update') || flags.includes('delete');
      return user.keyPatterns.some(
        ({ pattern, read, write }) => (!needsRead || read) && (!needsWrite || write) && (pattern === '*' || globMatches(pattern, args[position])),
      );
    });
  }

  private mayUseChannels(user: AclUser, mode: 'channel' | 'pattern', targets: readonly string[]): boolean {
    return targets.every((target) =>
      user.channelPatterns.some((pattern) => pattern === '*' || (mode === 'channel' ? globMatches(pattern, target) : pattern === target)),
    );
  }
}
