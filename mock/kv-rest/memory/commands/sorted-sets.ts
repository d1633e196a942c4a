// Sorted-set commands: ZADD (NX XX GT LT CH INCR), ZINCRBY, scores, ranks, ZREM, ZCARD, pops, random
// members and ZSCAN; ranges and set algebra live in their own files and are merged here.
import { array, bulk, bulkOrNil, EMPTY_ARRAY, error, integer, NIL, type ErrorReply, type Reply } from '../../reply';
import { isErrorReply, parseFloatArg, parseInteger, SYNTAX_ERROR } from '../arguments';
import { formatDouble } from '../format-double';
import type { CommandContext, CommandHandlers } from '../handler';
import type { ZSetValue } from '../keyspace';
import { randomPicks, refusePicks } from '../random-picks';
import { refuseValues } from '../reply-limits';
import { parseScanArguments } from '../scan-arguments';
import { sortedSetAlgebraHandlers } from './sorted-set-algebra';
import { sortedSetRangeHandlers } from './sorted-set-range-commands';
import { membersReply, newZSet, zsetAt } from './sorted-set-values';

interface ZaddFlags {
  nx: boolean;
  xx: boolean;
  gt: boolean;
  lt: boolean;
  ch: boolean;
  incr: boolean;
}

function parseZaddFlags(args: readonly string[]): { flags: ZaddFlags; next: number } | ErrorReply {
  const flags: ZaddFlags = { nx: false, xx: false, gt: false, lt: false, ch: false, incr: false };
  let index = 2;
  for (; index < args.length; index++) {
    const option = args[index].toLowerCase();
    if (!(option in flags)) break;
    flags[option as keyof ZaddFlags] = true;
  }
  if (flags.nx && flags.xx) return error('ERR XX and NX options at the same time are not compatible');
  if ((flags.gt && flags.lt) || (flags.nx && (flags.gt || flags.lt))) return error('ERR GT, LT, and/or NX options at the same time are not compatible');
  const pairs = args.length - index;
  if (pairs === 0 || pairs % 2 !== 0) return SYNTAX_ERROR;
  if (flags.incr && pairs > 2) return error('ERR INCR option supports a single increment-element pair');
  return { flags, next: index };
}

function zsetForWrite(ctx: CommandContext, key: string, create: boolean): ZSetValue | undefined | ErrorReply {
  const found = zsetAt(ctx, key);
  if (found !== undefined || !create) return found;
  const created = newZSet();
  ctx.db.set(key, created);
  return created;
}

function zadd(args: readonly string[], ctx: CommandContext): Reply {
  const parsed = parseZaddFlags(args);
  if (isErrorReply(parsed)) return parsed;
  const { flags, next } = parsed;
  const scores: number[] = [];
  for (let index = next; index < args.length; index += 2) {
    const score = parseFloatArg(args[index]);
    if (isErrorReply(score)) return score;
    scores.push(score);
  }
  const value = zsetForWrite(ctx, args[1], !flags.xx);
  if (isErrorReply(value)) return value;
  if (!value) return flags.incr ? NIL : integer(0);
  let added = 0;
  let changed = 0;
  let incremented: number | undefined;
  value.zset.batch(() =>
    scores.forEach((given, position) => {
      const member = args[next + position * 2 + 1];
      const current = value.zset.score(member);
      if ((flags.nx && current !== undefined) || (flags.xx && current === undefined)) return;
      const score = flags.incr ? (current ?? 0) + given : given;
      if (Number.isNaN(score)) return;
      if (current !== undefined && ((flags.gt && score <= current) || (flags.lt && score >= current))) return;
      incremented = score;
      if (current === undefined) added++;
      else if (current !== score) changed++;
      value.zset.set(member, score);
    }),
  );
  ctx.db.deleteIfEmpty(args[1], value);
  if (flags.incr) return incremented === undefined ? NIL : bulk(formatDouble(incremented));
  return integer(flags.ch ? added + changed : added);
}

function zincrby(args: readonly string[], ctx: CommandContext): Reply {
  const increment = parseFloatArg(args[2]);
  if (isErrorReply(increment)) return increment;
  const value = zsetForWrite(ctx, args[1], true);
  if (isErrorReply(value) || !value) return value ?? NIL;
  const score = (value.zset.score(args[3]) ?? 0) + increment;
  if (Number.isNaN(score)) {
    ctx.db.deleteIfEmpty(args[1], value);
    return error('ERR resulting score is not a number (NaN)');
  }
  value.zset.set(args[3], score);
  return bulk(formatDouble(score));
}

function zsetRead(read: (value: ZSetValue | undefined, args: readonly string[]) => Reply) {
  return (args: readonly string[], ctx: CommandContext): Reply => {
    const value = zsetAt(ctx, args[1]);
    return isErrorReply(value) ? value : read(value, args);
  };
}

const scoreReply = (value: ZSetValue | undefined, member: string): Reply => {
  const score = value?.zset.score(member);
  return score === undefined ? NIL : bulk(formatDouble(score));
};

function rank(reverse: boolean) {
  return zsetRead((value, args) => {
    if (args.length > 3) return SYNTAX_ERROR;
    const position = value?.zset.rank(args[2]);
    return position === undefined || !value ? NIL : integer(reverse ? value.zset.size - 1 - position : position);
  });
}

function zrem(args: readonly string[], ctx: CommandContext): Reply {
  const value = zsetAt(ctx, args[1]);
  if (isErrorReply(value)) return value;
  if (!value) return integer(0);
  let removed = 0;
  value.zset.batch(() => {
    for (const member of args.slice(2)) if (value.zset.delete(member)) removed++;
  });
  ctx.db.deleteIfEmpty(args[1], value);
  return integer(removed);
}

function pop(fromMax: boolean) {
  return (args: readonly string[], ctx: CommandContext): Reply => {
    if (args.length > 3) return SYNTAX_ERROR;
    let count = 1;
    if (args.length === 3) {
      const parsed = parseInteger(args[2]);
      if (isErrorReply(parsed) || parsed < 0) return error('ERR value is out of range, must be positive');
      count = parsed;
    }
    const value = zsetAt(ctx, args[1]);
    if (isErrorReply(value)) return value;
    if (!value || count === 0) return array([]);
    const all = value.zset.all();
    const taken = (fromMax ? [...all].reverse() : all).slice(0, count);
    const refused = refuseValues(taken.map((entry) => entry.member), ctx.replyLimits);
    if (refused) return refused;
    value.zset.batch(() => taken.forEach((entry) => value.zset.delete(entry.member)));
    ctx.db.deleteIfEmpty(args[1], value);
    return membersReply(taken, true);
  };
}

function zrandmember(args: readonly string[], ctx: CommandContext): Reply {
  if (args.length > 4 || (args.length === 4 && args[3].toLowerCase() !== 'withscores')) return SYNTAX_ERROR;
  const value = zsetAt(ctx, args[1]);
  if (isErrorReply(value)) return value;
  const entries = value ? [...value.zset.all()] : [];
  if (args.length === 2) return bulkOrNil(randomPicks(entries, 1)[0]?.member);
  const count = parseInteger(args[2]);
  if (isErrorReply(count)) return count;
  if (entries.length === 0) return EMPTY_ARRAY;
  const withScores = args.length === 4;
  return refusePicks(count, withScores ? 2 : 1, ctx.replyLimits) ?? membersReply(randomPicks(entries, count), withScores);
}

function zscan(args: readonly string[], ctx: CommandContext): Reply {
  const options = parseScanArguments(args, 2, false);
  if (isErrorReply(options)) return options;
  const value = zsetAt(ctx, args[1]);
  if (isErrorReply(value)) return value;
  const all = value ? value.zset.all() : [];
  const start = Math.min(options.cursor, all.length);
  const end = Math.min(start + options.count, all.length);
  const visited = all.slice(start, end).filter((entry) => options.match === undefined || options.match.matches(entry.member));
  return array([bulk(String(end >= all.length ? 0 : end)), membersReply(visited, true)]);
}

export const sortedSetCommandHandlers: CommandHandlers = {
  zadd,
  zincrby,
  zscore: zsetRead((value, args) => scoreReply(value, args[2])),
  zmscore: zsetRead((value, args) => array(args.slice(2).map((member) => scoreReply(value, member)))),
  zcard: zsetRead((value) => integer(value?.zset.size ?? 0)),
  zrank: rank(false),
  zrevrank: rank(true),
  zrem,
  zpopmin: pop(false),
  zpopmax: pop(true),
  zrandmember,
  zscan,
  ...sortedSetRangeHandlers,
  ...sortedSetAlgebraHandlers,
};
