// Hash commands: HSET/HMSET/HSETNX, reads (HGET, HMGET, HGETALL, HKEYS, HVALS, HLEN, HEXISTS,
// HSTRLEN), HDEL, the HINCRBY pair, HSCAN and HRANDFIELD, with Redis 7.0's replies and errors. A
// field's TTL (hash-field-expiry.ts) follows Redis 8.0's rules: HSET and HMSET overwrite it away,
// HDEL removes it with the field, HINCRBY and HINCRBYFLOAT keep it.
import { wrongArityText } from '../../command-table';
import { array, bulk, bulkArray, bulkOrNil, EMPTY_ARRAY, error, integer, NIL, OK, type ErrorReply, type Reply } from '../../reply';
import { isErrorReply, parseInt64, parseInteger, SYNTAX_ERROR } from '../arguments';
import type { CommandContext, CommandHandlers } from '../handler';
import type { HashValue } from '../keyspace';
import { parseLongDouble } from '../long-double';
import { randomPicks, refusePicks } from '../random-picks';
import { reserveStrings } from '../reserved-replies';
import { parseScanArguments } from '../scan-arguments';
import { incrementFloat, incrementInteger } from './counters';

/** Redis answers HSCAN on a small (listpack-encoded) hash in one call, whatever COUNT says. */
const SMALL_HASH_FIELDS = 128;

function hashFor(ctx: CommandContext, key: string): HashValue | undefined | ErrorReply {
  return ctx.db.lookupTyped(key, 'hash', ctx.now);
}

/** The hash at `key`, created empty (not yet stored) when absent. */
function hashForWrite(ctx: CommandContext, key: string): HashValue | ErrorReply {
  const found = hashFor(ctx, key);
  if (found !== undefined) return found;
  const created: HashValue = { type: 'hash', fields: new Map() };
  ctx.db.set(key, created);
  return created;
}

function hsetGeneric(replyOk: boolean) {
  return (args: readonly string[], ctx: CommandContext): Reply => {
    if (args.length % 2 !== 0) return error(wrongArityText(args[0].toLowerCase()));
    const hash = hashForWrite(ctx, args[1]);
    if (isErrorReply(hash)) return hash;
    let added = 0;
    for (let index = 2; index < args.length; index += 2) {
      if (!hash.fields.has(args[index])) added++;
      hash.fields.set(args[index], args[index + 1]);
      hash.fieldDeadlines?.delete(args[index]);
    }
    return replyOk ? OK : integer(added);
  };
}

function hsetnx(args: readonly string[], ctx: CommandContext): Reply {
  const hash = hashForWrite(ctx, args[1]);
  if (isErrorReply(hash)) return hash;
  if (hash.fields.has(args[2])) return integer(0);
  hash.fields.set(args[2], args[3]);
  return integer(1);
}

/** A read of one hash: `read` gets the hash, or undefined when the key is missing. */
function hashRead(read: (hash: HashValue | undefined, args: readonly string[], ctx: CommandContext) => Reply) {
  return (args: readonly string[], ctx: CommandContext): Reply => {
    const hash = hashFor(ctx, args[1]);
    return isErrorReply(hash) ? hash : read(hash, args, ctx);
  };
}

const hget = hashRead((hash, args) => bulkOrNil(hash?.fields.get(args[2])));
const hmget = hashRead((hash, args) => array(args.slice(2).map((field) => bulkOrNil(hash?.fields.get(field)))));
const hgetall = hashRead((hash, _args, ctx) => {
  if (!hash) return EMPTY_ARRAY;
  return reserveStrings(hash.fields.size, hash.fields.keys(), ctx) ?? reserveStrings(hash.fields.size, hash.fields.values(), ctx) ?? bulkArray([...hash.fields].flat());
});
const hkeys = hashRead((hash, _args, ctx) => (hash ? (reserveStrings(hash.fields.size, hash.fields.keys(), ctx) ?? bulkArray([...hash.fields.keys()])) : EMPTY_ARRAY));
const hvals = hashRead((hash, _args, ctx) => (hash ? (reserveStrings(hash.fields.size, hash.fields.values(), ctx) ?? bulkArray([...hash.fields.values()])) : EMPTY_ARRAY));
const hlen = hashRead((hash) => integer(hash?.fields.size ?? 0));
const hexists = hashRead((hash, args) => integer(hash?.fields.has(args[2]) ? 1 : 0));
const hstrlen = hashRead((hash, args) => integer(hash?.fields.get(args[2])?.length ?? 0));

function hdel(args: readonly string[], ctx: CommandContext): Reply {
  const hash = hashFor(ctx, args[1]);
  if (hash === undefined || isErrorReply(hash)) return hash ?? integer(0);
  let removed = 0;
  for (const field of args.slice(2)) {
    if (!hash.fields.delete(field)) continue;
    hash.fieldDeadlines?.delete(field);
    removed++;
  }
  ctx.db.deleteIfEmpty(args[1], hash);
  return integer(removed);
}

function hincrby(args: readonly string[], ctx: CommandContext): Reply {
  const [, key, field, incrementText] = args;
  const increment = parseInt64(incrementText);
  if (typeof increment !== 'bigint') return increment;
  const hash = hashForWrite(ctx, key);
  if (isErrorReply(hash)) return hash;
  const next = incrementInteger(hash.fields.get(field) ?? '0', increment, error('ERR hash value is not an integer'));
  if (isErrorReply(next)) {
    ctx.db.deleteIfEmpty(key, hash);
    return next;
  }
  hash.fields.set(field, String(next));
  return integer(next);
}

function hincrbyfloat(args: readonly string[], ctx: CommandContext): Reply {
  const [, key, field, incrementText] = args;
  const increment = parseLongDouble(incrementText);
  if (increment === undefined) return error('ERR value is not a valid float');
  if (increment.infinite) return error('ERR value is NaN or Infinity');
  const hash = hashForWrite(ctx, key);
  if (isErrorReply(hash)) return hash;
  const next = incrementFloat(hash.fields.get(field) ?? '0', incrementText, error('ERR hash value is not a float'));
  if (isErrorReply(next)) {
    ctx.db.deleteIfEmpty(key, hash);
    return next;
  }
  hash.fields.set(field, next);
  return bulk(next);
}

function hscan(args: readonly string[], ctx: CommandContext): Reply {
  const options = parseScanArguments(args, 2, false);
  if (isErrorReply(options)) return options;
  const hash = hashFor(ctx, args[1]);
  if (isErrorReply(hash)) return hash;
  const entries = hash ? [...hash.fields] : [];
  const whole = entries.length <= SMALL_HASH_FIELDS;
  // A large hash is walked by position in insertion order: unlike Redis, deleting fields between
  // calls can shift a field behind the cursor, so such a field may be missed.
  const start = whole ? 0 : Math.min(options.cursor, entries.length);
  const end = whole ? entries.length : Math.min(start + options.count, entries.length);
  const visited = entries.slice(start, end).filter(([field]) => options.match === undefined || options.match.matches(field));
  const cursor = end >= entries.length ? 0 : end;
  return array([bulk(String(cursor)), bulkArray(visited.flat())]);
}

function hrandfield(args: readonly string[], ctx: CommandContext): Reply {
  if (args.length > 4 || (args.length === 4 && args[3].toLowerCase() !== 'withvalues')) return SYNTAX_ERROR;
  let count: number | undefined;
  if (args.length >= 3) {
    const parsed = parseInteger(args[2]);
    if (isErrorReply(parsed)) return parsed;
    count = parsed;
  }
  const hash = hashFor(ctx, args[1]);
  if (isErrorReply(hash)) return hash;
  const entries = hash ? [...hash.fields] : [];
  if (count === undefined) return entries.length === 0 ? NIL : bulk(randomPicks(entries, 1)[0][0]);
  if (count === 0 || entries.length === 0) return EMPTY_ARRAY;
  const refused = refusePicks(count, args.length === 4 ? 2 : 1, ctx.replyLimits);
  if (refused) return refused;
  const chosen = randomPicks(entries, count);
  const withValues = args.length === 4;
  return bulkArray(withValues ? chosen.flat() : chosen.map(([field]) => field));
}

export const hashCommandHandlers: CommandHandlers = {
  hset: hsetGeneric(false),
  hmset: hsetGeneric(true),
  hsetnx,
  hget,
  hmget,
  hgetall,
  hkeys,
  hvals,
  hlen,
  hexists,
  hstrlen,
  hdel,
  hincrby,
  hincrbyfloat,
  hscan,
  hrandfield,
};
