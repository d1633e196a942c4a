// One ACL user and the ACL SETUSER rules that change it (`on`, `>password`, `~keys`, `&channels`,
// `+@category`, `-command` ...), applied in order with Redis's error texts.
import { passwordSha256Of } from '../../engine';
import { allCommandNames, commandsInCategory } from './command-categories';

export interface KeyPattern {
  readonly pattern: string;
  readonly read: boolean;
  readonly write: boolean;
}

export interface AclUser {
  readonly name: string;
  enabled: boolean;
  nopass: boolean;
  /** SHA-256 hex digests of the passwords, as Redis keeps them. */
  readonly passwords: Set<string>;
  /** Command names allowed (top-level, and `container|sub` for subcommands). */
  readonly commands: Set<string>;
  /** The command rules as written, for ACL LIST. */
  commandRules: string[];
  keyPatterns: KeyPattern[];
  /** Set by `~*` or `allkeys` (not by `%RW~*`): no key checks, and no other key pattern may follow. */
  allKeys: boolean;
  channelPatterns: string[];
}

/** A new user as ACL SETUSER creates it: off, no password, no commands, no keys, no channels. */
export function newUser(name: string): AclUser {
  return { name, enabled: false, nopass: false, passwords: new Set(), commands: new Set(), commandRules: [], keyPatterns: [], allKeys: false, channelPatterns: [] };
}

export function copyUser(user: AclUser): AclUser {
  return {
    ...user,
    passwords: new Set(user.passwords),
    commands: new Set(user.commands),
    commandRules: [...user.commandRules],
    keyPatterns: [...user.keyPatterns],
    channelPatterns: [...user.channelPatterns],
  };
}

const HASH = /^[0-9a-f]{64}$/;
const AFTER_ALL_KEYS =
  "Adding a pattern after the * pattern (or the 'allkeys' flag) is not valid and does not have any effect. Try 'resetkeys' to start with an empty list of patterns";

/** Applies one rule; returns a reason when the rule is invalid. */
export function applyRule(user: AclUser, rule: string): string | undefined {
  const lower = rule.toLowerCase();
  switch (lower) {
    case 'on':
    case 'off':
      user.enabled = lower === 'on';
      return undefined;
    case 'nopass':
      user.nopass = true;
      user.passwords.clear();
      return undefined;
    case 'resetpass':
      user.nopass = false;
      user.passwords.clear();
      return undefined;
    case 'allkeys':
    case '~*':
      user.keyPatterns = [{ pattern: '*', read: true, write: true }];
      user.allKeys = true;
      return undefined;
    case 'resetkeys':
      user.keyPatterns = [];
      user.allKeys = false;
      return undefined;
    case 'allchannels':
      user.channelPatterns = ['*'];
      return undefined;
    case 'resetchannels':
      user.channelPatterns = [];
      return undefined;
    case 'allcommands':
      return applyCommandRule(user, '+@all');
    case 'nocommands':
      return applyCommandRule(user, '-@all');
    case 'reset':
      for (const step of ['resetpass', 'resetkeys', 'resetchannels', 'off', '-@all']) applyRule(user, step);
      return undefined;
  }
  const [first] = rule;
  const rest = rule.slice(1);
  if (first === '>') {
    user.passwords.add(passwordSha256Of(rest));
    user.nopass = false;
  } else if (first === '<') {
    if (!user.passwords.delete(passwordSha256Of(rest))) return 'The password you are trying to remove from the user does not exist';
  } else if (first === '#' || first === '!') {
    if (!HASH.test(rest)) return 'The password hash must be exactly 64 characters and contain only lowercase hexadecimal characters';
    if (first === '#') {
      user.passwords.add(rest);
      user.nopass = false;
    } else if (!user.passwords.delete(rest)) return 'The password you are trying to remove from the user does not exist';
  } else if (first === '~' || first === '%') {
    return applyKeyPattern(user, rule);
  } else if (first === '&') {
    user.channelPatterns.push(rest);
  } else if (first === '+' || first === '-') {
    return applyCommandRule(user, rule);
  } else {
    return 'Syntax error';
  }
  return undefined;
}

/** `~pattern`, or `%R~`, `%W~`, `%RW~` (letters once each, any order or case) for read or write only. */
function applyKeyPattern(user: AclUser, rule: string): string | undefined {
  if (user.allKeys) return AFTER_ALL_KEYS;
  let read = rule[0] === '~';
  let write = read;
  let offset = 1;
  if (rule[0] === '%') {
    for (; offset < rule.length; offset++) {
      const letter = rule[offset].toUpperCase();
      if (letter === 'R' && !read) read = true;
      else if (letter === 'W' && !write) write = true;
      else if (letter === '~') break;
      else return 'Syntax error';
    }
    if (!read && !write) return 'Syntax error';
    offset++;
  }
  user.keyPatterns.push({ pattern: rule.slice(offset), read, write });
  return undefined;
}

function applyCommandRule(user: AclUser, rule: string): string | undefined {
  const allow = rule[0] === '+';
  const target = rule.slice(1).toLowerCase();
  let names: Iterable<string>;
  if (target.startsWith('@')) {
    const category = commandsInCategory(target.slice(1));
    if (!category) return 'Unknown command or category name in ACL';
    names = category;
  } else {
    const known = allCommandNames();
    if (!known.includes(target)) return 'Unknown command or category name in ACL';
    // A container rule (`+acl`) covers its subcommands too.
    names = known.filter((name) => name === target || name.startsWith(`${target}|`));
  }
  for (const name of names) {
    if (allow) user.commands.add(name);
    else user.commands.delete(name);
  }
  const lower = rule.toLowerCase();
  if (lower === '+@all' || lower === '-@all') user.commandRules = [];
  user.commandRules.push(lower);
  return undefined;
}

/** The user as ACL LIST describes it. */
export function describeUser(user: AclUser): string {
  const parts = [`user ${user.name}`, user.enabled ? 'on' : 'off'];
  if (user.nopass) parts.push('nopass');
  parts.push(...[...user.passwords].map((digest) => `#${digest}`));
  parts.push(
    ...user.keyPatterns.map(({ pattern, read, write }) => (read && write ? `~${pattern}` : `%${read ? 'R' : 'W'}~${pattern}`)),
  );
  parts.push(user.channelPatterns.length === 0 ? 'resetchannels' : user.channelPatterns.map((pattern) => `&${pattern}`).join(' '));
  const rules = user.commandRules[0] === '+@all' ? user.commandRules : ['-@all', ...user.commandRules.filter((rule) => rule !== '-@all')];
  parts.push(rules.join(' '));
  return parts.join(' ');
}
