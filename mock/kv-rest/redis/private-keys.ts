// The redis engine's own key names (the daily count, the script texts: gateway-store.ts) kept out of
// the REST API's reach. They live in a private database, but Redis's ACL names commands, not
// databases, and a script's `redis.call('COPY', k, name, 'DB', <private db>, 'REPLACE')` writes
// there: behind a Redis URL without a password, the Standard token's holder can compute the daily
// count's name and reset it (docs/security.md). So no REST user may write a key named with
// PRIVATE_KEY_PREFIX, in any database: the engine's own users get key patterns that match every
// other name, and a user created through the REST API has its "all keys" rules narrowed the same
// way and a write pattern that could match such a name refused.
import { error, type ErrorReply } from '../reply';

/** Every key the engine keeps for itself starts with this. */
export const PRIVATE_KEY_PREFIX = 'kv-rest-gateway:';

const escapeGlob = (text: string): string => text.replace(/[*?[\]\\]/g, (char) => `\\${char}`);

/**
 * Glob patterns that together match every key name except those starting with PRIVATE_KEY_PREFIX:
 * each of the prefix's own beginnings (the empty name included), and each beginning followed by
 * another character than the prefix's next one. 2 x 16 patterns; Redis tries them in order, and most
 * keys match the first (`[^k]*`).
 */
export const OUTSIDE_PRIVATE_KEYS: readonly string[] = [...PRIVATE_KEY_PREFIX].flatMap((char, index) => {
  const head = escapeGlob(PRIVATE_KEY_PREFIX.slice(0, index));
  return [`${head}[^\\${char}]*`, head];
});

/**
 * Key rules that read every key and write every key but the engine's: reading in the served database
 * reaches nothing of the engine's, and Redis lets SORT's BY and GET patterns (which may name any key)
 * through only for a user that reads every key. The other keys get read and write in one pattern each
 * (Redis wants one pattern granting all the access a key needs: LMPOP's key is read and written).
 * `resetkeys` first: Redis refuses a pattern added after `~*`, which an older engine's user may have.
 */
export const READ_ALL_WRITE_OUTSIDE_PRIVATE_KEYS: readonly string[] = ['resetkeys', ...OUTSIDE_PRIVATE_KEYS.map((pattern) => `~${pattern}`), '%R~*'];

/** Where a Redis glob's character class that starts at `open` (`[`) ends, and whether it matches `char` (Redis's util.c stringmatchlen). */
function classAt(pattern: string, open: number, char: string): { readonly next: number; readonly matches: boolean } {
  let index = open + 1;
  const negated = pattern[index] === '^';
  if (negated) index += 1;
  let matches = false;
  while (index < pattern.length && pattern[index] !== ']') {
    if (pattern[index] === '\\' && index + 1 < pattern.length) {
      index += 1;
      if (pattern[index] === char) matches = true;
    } else if (pattern[index + 1] === '-' && index + 2 < pattern.length) {
      const [low, high] = [pattern[index], pattern[index + 2]].sort();
      if (char >= low && char <= high) matches = true;
      index += 2;
    } else if (pattern[index] === char) matches = true;
    index += 1;
  }
  // Redis reads an unclosed class to the pattern's end.
  return { next: Math.min(index + 1, pattern.length), matches: negated ? !matches : matches };
}

/**
 * Whether `pattern` (a Redis glob) matches some key name that starts with `prefix`: the pattern's
 * positions reachable after reading the prefix, tried as a set (linear in the pattern per character
 * of the prefix). Once the prefix is read, whatever remains of the pattern is taken to match some
 * rest, so a pattern in doubt counts as reaching it.
 */
export function globReachesPrefix(pattern: string, prefix: string): boolean {
  const closure = (positions: Iterable<number>): Set<number> => {
    const reached = new Set<number>();
    for (let position of positions) {
      reached.add(position);
      while (pattern[position] === '*') reached.add(++position);
    }
    return reached;
  };
  let positions = closure([0]);
  for (const char of prefix) {
    const next: number[] = [];
    for (const position of positions) {
      const token = pattern[position];
      if (token === undefined) continue;
      if (token === '*') next.push(position);
      else if (token === '?') next.push(position + 1);
      else if (token === '[') {
        const { next: after, matches } = classAt(pattern, position, char);
        if (matches) next.push(after);
      } else if (token === '\\' && position + 1 < pattern.length) {
        if (pattern[position + 1] === char) next.push(position + 2);
      } else if (token === char) next.push(position + 1);
    }
    positions = closure(next);
    if (positions.size === 0) return false;
  }
  return true;
}

/** An ACL key rule's permissions and pattern: `~p` and `allkeys` read and write, `%R~p`, `%W~p`, `%RW~p` as written. */
function keyRule(rule: string): { readonly permissions: string; readonly pattern: string } | undefined {
  if (rule.toLowerCase() === 'allkeys') return { permissions: '', pattern: '*' };
  if (rule.startsWith('~')) return { permissions: '', pattern: rule.slice(1) };
  const tilde = rule.indexOf('~');
  return rule.startsWith('%') && tilde > 0 ? { permissions: rule.slice(0, tilde), pattern: rule.slice(tilde + 1) } : undefined;
}

/**
 * A REST caller's ACL SETUSER rules with the engine's key names out of reach: a rule that may write
 * every key (`~*`, `allkeys`, `%RW~*`) becomes READ_ALL_WRITE_OUTSIDE_PRIVATE_KEYS (`%W~*` the writes
 * of it), and a write pattern that could match a private name is refused. Read-only patterns stay: reading
 * in the served database reaches nothing of the engine's.
 */
export function confineKeyRules(rules: readonly string[]): readonly string[] | ErrorReply {
  const confined: string[] = [];
  for (const rule of rules) {
    const parsed = keyRule(rule);
    const writes = parsed !== undefined && (parsed.permissions === '' || parsed.permissions.toUpperCase().includes('W'));
    if (!parsed || !writes || !globReachesPrefix(parsed.pattern, PRIVATE_KEY_PREFIX)) {
      confined.push(rule);
    } else if (parsed.pattern === '*') {
      // Reading and writing every key covers any pattern given before.
      const readsAndWritesAll = /^(%RW|%WR)?$/i.test(parsed.permissions);
      confined.push(...(readsAndWritesAll ? READ_ALL_WRITE_OUTSIDE_PRIVATE_KEYS : OUTSIDE_PRIVATE_KEYS.map((pattern) => `%W~${pattern}`)));
    } else {
      return error(`ERR the key pattern '${parsed.pattern}' could write the REST server's own keys (${PRIVATE_KEY_PREFIX}...): narrow it, or give it read access only (%R~)`);
    }
  }
  return confined;
}
