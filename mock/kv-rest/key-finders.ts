// Redis 7.0's own key finders, for the arguments where its key specs are not enough: a numkeys that
// does not parse as Redis's strict integer (read instead with C's lenient atoi), SORT's STORE,
// SET ... GET and BITFIELD whose keys are read or written depending on the arguments, MIGRATE's
// KEYS, GEORADIUS's STORE and XREAD's STREAMS when the spec's keyword has nothing after it.
// Keys found here without flags (`[]`) need only match a key pattern, read or write alike.
import type { KeyReference } from './key-specs';

const READ = ['ro', 'access'];
const OVERWRITE = ['ow', 'update'];
const READ_WRITE = ['rw', 'access', 'update'];
const NO_FLAGS: readonly string[] = [];

/** C's atoi on Redis's argument: leading blanks, a sign, then digits up to the first other character. */
function atoi(text: string): number {
  const match = /^[ \t\n\v\f\r]*([+-]?[0-9]{1,12})/.exec(text.slice(0, 64));
  return match ? Number(match[1]) : 0;
}

const at = (position: number, flags: readonly string[] = NO_FLAGS): KeyReference => ({ position, flags });

/** `[destination] numkeys key ...`: no keys at all when the count is out of range (the command then fails). */
function counted(storeAt: number, countAt: number, firstAt: number, args: readonly string[]): KeyReference[] {
  const count = atoi(args[countAt]);
  if (count < 1 || count > args.length - firstAt) return [];
  const keys: KeyReference[] = [];
  for (let i = 0; i < count; i++) keys.push(at(firstAt + i));
  if (storeAt > 0) keys.push(at(storeAt));
  return keys;
}

function sortKeys(args: readonly string[]): KeyReference[] {
  const SKIP: Record<string, number> = { limit: 2, get: 1, by: 1 };
  let store: number | undefined;
  for (let i = 2; i < args.length; i++) {
    const word = args[i].toLowerCase();
    if (word in SKIP) i += SKIP[word];
    else if (word === 'store' && i + 1 < args.length) store = i + 1;
  }
  return store === undefined ? [at(1, READ)] : [at(1, READ), at(store, OVERWRITE)];
}

function setKeys(args: readonly string[]): KeyReference[] {
  for (let i = 3; i < args.length; i++) if (args[i].toLowerCase() === 'get') return [at(1, READ_WRITE)];
  return [at(1, OVERWRITE)];
}

function bitfieldKeys(args: readonly string[]): KeyReference[] {
  for (let i = 2; i < args.length; i++) {
    const word = args[i].toLowerCase();
    const remaining = args.length - i - 1;
    if (word === 'get' && remaining >= 2) i += 2;
    else if (word === 'overflow' && remaining >= 1) i += 1;
    // A write (SET, INCRBY) or a syntax error: Redis assumes the worse.
    else return [at(1, READ_WRITE)];
  }
  return [at(1, READ)];
}

function migrateKeys(args: readonly string[]): KeyReference[] {
  const SKIP: Record<string, number> = { copy: 0, replace: 0, auth: 1, auth2: 2 };
  const flags = ['rw', 'access', 'delete'];
  for (let i = 6; i < args.length; i++) {
    const word = args[i].toLowerCase();
    if (word === 'keys') {
      if (args[3].length > 0) return [];
      const keys: KeyReference[] = [];
      for (let position = i + 1; position < args.length; position++) keys.push(at(position, flags));
      return keys;
    }
    if (word in SKIP) i += SKIP[word];
  }
  return [at(3, flags)];
}

function georadiusKeys(args: readonly string[]): KeyReference[] {
  let store: number | undefined;
  for (let i = 5; i < args.length; i++) {
    const word = args[i].toLowerCase();
    if ((word === 'store' || word === 'storedist') && i + 1 < args.length) store = ++i;
  }
  return store === undefined ? [at(1)] : [at(1), at(store)];
}

function xreadKeys(args: readonly string[]): KeyReference[] {
  const SKIP: Record<string, number> = { block: 1, count: 1, group: 2, noack: 0 };
  for (let i = 1; i < args.length; i++) {
    const word = args[i].toLowerCase();
    if (word === 'streams') {
      const rest = args.length - i - 1;
      if (rest === 0 || rest % 2 !== 0) return [];
      const keys: KeyReference[] = [];
      for (let position = i + 1; position <= i + rest / 2; position++) keys.push(at(position));
      return keys;
    }
    if (!(word in SKIP)) return [];
    i += SKIP[word];
  }
  return [];
}

const FINDERS: Readonly<Record<string, (args: readonly string[]) => KeyReference[]>> = {
  eval: (args) => counted(0, 2, 3, args),
  evalsha: (args) => counted(0, 2, 3, args),
  eval_ro: (args) => counted(0, 2, 3, args),
  evalsha_ro: (args) => counted(0, 2, 3, args),
  fcall: (args) => counted(0, 2, 3, args),
  fcall_ro: (args) => counted(0, 2, 3, args),
  blmpop: (args) => counted(0, 2, 3, args),
  bzmpop: (args) => counted(0, 2, 3, args),
  zunion: (args) => counted(0, 1, 2, args),
  zinter: (args) => counted(0, 1, 2, args),
  zdiff: (args) => counted(0, 1, 2, args),
  zintercard: (args) => counted(0, 1, 2, args),
  sintercard: (args) => counted(0, 1, 2, args),
  lmpop: (args) => counted(0, 1, 2, args),
  zmpop: (args) => counted(0, 1, 2, args),
  zunionstore: (args) => counted(1, 2, 3, args),
  zinterstore: (args) => counted(1, 2, 3, args),
  zdiffstore: (args) => counted(1, 2, 3, args),
  sort: sortKeys,
  sort_ro: () => [at(1, READ)],
  set: setKeys,
  bitfield: bitfieldKeys,
  migrate: migrateKeys,
  georadius: georadiusKeys,
  georadiusbymember: georadiusKeys,
  xread: xreadKeys,
  xreadgroup: xreadKeys,
};

/** The keys Redis's own finder gives for a command whose specs it could not trust; none for the others. */
export function nativeKeys(name: string, args: readonly string[]): KeyReference[] {
  return FINDERS[name]?.(args) ?? [];
}
