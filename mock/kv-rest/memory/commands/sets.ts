// Set commands: SADD/SREM, membership (SISMEMBER, SMISMEMBER), SCARD, SMEMBERS, random picks
// (SPOP, SRANDMEMBER), SMOVE, the algebra (SINTER, SUNION, SDIFF, their STORE forms, SINTERCARD), SSCAN.
import { array, bulk, bulkArray, bulkOrNil, EMPTY_ARRAY, error, integer, NIL, type ErrorReply, type Reply } from '../../reply';
import { isErrorReply, parseInteger, SYNTAX_ERROR } from '../arguments';
import type { CommandContext, CommandHandlers } from '../handler';
import type { SetValue } from '../keyspace';
import { randomPicks, refusePicks } from '../random-picks';
import { refuseValues } from '../reply-limits';
import { reserveStrings } from '../reserved-replies';
import { parseScanArguments } from '../scan-arguments';

const EMPTY = new Set<string>();

function setAt(ctx: CommandContext, key: string): SetValue | undefined | ErrorReply {
  return ctx.db.lookupTyped(key, 'set', ctx.now);
}

/** The members at `key` (empty when absent), or WRONGTYPE. */
function membersAt(ctx: CommandContext, key: string): ReadonlySet<string> | ErrorReply {
  const found = setAt(ctx, key);
  return isErrorReply(found) ? found : (found?.members ?? EMPTY);
}

function sadd(args: readonly string[], ctx: CommandContext): Reply {
  let set = setAt(ctx, args[1]);
  if (isErrorReply(set)) return set;
  if (!set) {
    set = { type: 'set', members: new Set() };
    ctx.db.set(args[1], set);
  }
  const before = set.members.size;
  for (const member of args.slice(2)) set.members.add(member);
  return integer(set.members.size - before);
}

function srem(args: readonly string[], ctx: CommandContext): Reply {
  const set = setAt(ctx, args[1]);
  if (isErrorReply(set)) return set;
  if (!set) return integer(0);
  let removed = 0;
  for (const member of args.slice(2)) if (set.members.delete(member)) removed++;
  ctx.db.deleteIfEmpty(args[1], set);
  return integer(removed);
}

function setRead(read: (members: ReadonlySet<string>, args: readonly string[], ctx: CommandContext) => Reply) {
  return (args: readonly string[], ctx: CommandContext): Reply => {
    const members = membersAt(ctx, args[1]);
    return isErrorReply(members) ? members : read(members, args, ctx);
  };
}

/** The sets named by `keys`, or the first WRONGTYPE among them. */
function setsAt(ctx: CommandContext, keys: readonly string[]): ReadonlySet<string>[] | ErrorReply {
  const sets: ReadonlySet<string>[] = [];
  for (const key of keys) {
    const members = membersAt(ctx, key);
    if (isErrorReply(members)) return members;
    sets.push(members);
  }
  return sets;
}

const ALGEBRA = {
  inter: (sets: ReadonlySet<string>[]): Set<string> => {
    const [smallest, ...rest] = [...sets].sort((a, b) => a.size - b.size);
    return new Set([...smallest].filter((member) => rest.every((set) => set.has(member))));
  },
  union: (sets: ReadonlySet<string>[]): Set<string> => new Set(sets.flatMap((set) => [...set])),
  diff: ([first, ...rest]: ReadonlySet<string>[]): Set<string> => new Set([...first].filter((member) => !rest.some((set) => set.has(member)))),
};

function algebra(operation: keyof typeof ALGEBRA, store: boolean) {
  return (args: readonly string[], ctx: CommandContext): Reply => {
    const keys = args.slice(store ? 2 : 1);
    const sets = setsAt(ctx, keys);
    if (isErrorReply(sets)) return sets;
    const result = ALGEBRA[operation](sets);
    if (!store) return reserveStrings(result.size, result, ctx) ?? bulkArray([...result]);
    ctx.db.delete(args[1]);
    if (result.size > 0) ctx.db.set(args[1], { type: 'set', members: result });
    return integer(result.size);
  };
}

function sintercard(args: readonly string[], ctx: CommandContext): Reply {
  const count = parseInteger(args[1]);
  if (isErrorReply(count)) return count;
  if (count < 1) return error("ERR numkeys should be greater than 0");
  if (args.length < 2 + count) return error("ERR Number of keys can't be greater than number of args");
  let limit = 0;
  const rest = args.slice(2 + count);
  if (rest.length > 0) {
    if (rest.length !== 2 || rest[0].toLowerCase() !== 'limit') return SYNTAX_ERROR;
    const parsed = parseInteger(rest[1]);
    if (isErrorReply(parsed) || parsed < 0) return error("ERR LIMIT can't be negative");
    limit = parsed;
  }
  const sets = setsAt(ctx, args.slice(2, 2 + count));
  if (isErrorReply(sets)) return sets;
  const size = ALGEBRA.inter(sets).size;
  return integer(limit > 0 ? Math.min(limit, size) : size);
}

function spop(args: readonly string[], ctx: CommandContext): Reply {
  if (args.length > 3) return SYNTAX_ERROR;
  const set = setAt(ctx, args[1]);
  if (isErrorReply(set)) return set;
  let count: number | undefined;
  if (args.length === 3) {
    const parsed = parseInteger(args[2]);
    if (isErrorReply(parsed) || parsed < 0) return error('ERR value is out of range, must be positive');
    count = parsed;
  }
  if (!set) return count === undefined ? NIL : array([]);
  const picked = randomPicks([...set.members], count ?? 1);
  const refused = refuseValues(picked, ctx.replyLimits);
  if (refused) return refused;
  for (const member of picked) set.members.delete(member);
  ctx.db.deleteIfEmpty(args[1], set);
  return count === undefined ? bulk(picked[0]) : bulkArray(picked);
}

function srandmember(args: readonly string[], ctx: CommandContext): Reply {
  if (args.length > 3) return SYNTAX_ERROR;
  const members = membersAt(ctx, args[1]);
  if (isErrorReply(members)) return members;
  if (args.length === 2) return bulkOrNil(randomPicks([...members], 1)[0]);
  const count = parseInteger(args[2]);
  if (isErrorReply(count)) return count;
  if (members.size === 0) return EMPTY_ARRAY;
  return refusePicks(count, 1, ctx.replyLimits) ?? bulkArray(randomPicks([...members], count));
}

function smove(args: readonly string[], ctx: CommandContext): Reply {
  // Redis answers 0 for a missing source before it looks at the destination's type.
  const source = setAt(ctx, args[1]);
  if (source === undefined) return integer(0);
  if (isErrorReply(source)) return source;
  const destination = setAt(ctx, args[2]);
  if (isErrorReply(destination)) return destination;
  if (!source.members.has(args[3])) return integer(0);
  if (args[1] === args[2]) return integer(1);
  source.members.delete(args[3]);
  ctx.db.deleteIfEmpty(args[1], source);
  if (destination) destination.members.add(args[3]);
  else ctx.db.set(args[2], { type: 'set', members: new Set([args[3]]) });
  return integer(1);
}

function sscan(args: readonly string[], ctx: CommandContext): Reply {
  const options = parseScanArguments(args, 2, false);
  if (isErrorReply(options)) return options;
  const members = membersAt(ctx, args[1]);
  if (isErrorReply(members)) return members;
  const all = [...members];
  const start = Math.min(options.cursor, all.length);
  const end = Math.min(start + options.count, all.length);
  const visited = all.slice(start, end).filter((member) => options.match === undefined || options.match.matches(member));
  return array([bulk(String(end >= all.length ? 0 : end)), bulkArray(visited)]);
}

export const setCommandHandlers: CommandHandlers = {
  sadd,
  srem,
  smembers: setRead((members, _args, ctx) => reserveStrings(members.size, members, ctx) ?? bulkArray([...members])),
  sismember: setRead((members, args) => integer(members.has(args[2]) ? 1 : 0)),
  smismember: setRead((members, args) => array(args.slice(2).map((member) => integer(members.has(member) ? 1 : 0)))),
  scard: setRead((members) => integer(members.size)),
  spop,
  srandmember,
  smove,
  sinter: algebra('inter', false),
  sinterstore: algebra('inter', true),
  sunion: algebra('union', false),
  sunionstore: algebra('union', true),
  sdiff: algebra('diff', false),
  sdiffstore: algebra('diff', true),
  sintercard,
  sscan,
};
