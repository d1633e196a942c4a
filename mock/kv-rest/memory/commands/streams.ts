// Stream commands on entries: XADD, XLEN, XRANGE, XREVRANGE, XDEL, XTRIM and XSETID, answering as
// Redis 7.0 does. Reads (XREAD, XREADGROUP) live in stream-reads.ts, consumer groups in
// stream-groups.ts and stream-claims.ts, XINFO in stream-info.ts.
import { wrongArityText } from '../../command-table';
import { error, integer, NIL, NULL_ARRAY, OK, type Reply } from '../../reply';
import { isErrorReply, parseInteger, SYNTAX_ERROR } from '../arguments';
import type { CommandContext, CommandHandlers } from '../handler';
import { idOf, MAX_ID, MIN_ID, msOf, parseRangeBound, parseStrictId, seqOf, type StreamId } from '../stream-id';
import { streamClaimHandlers } from './stream-claims';
import { streamGroupHandlers } from './stream-groups';
import { streamHelpHandlers } from './stream-help';
import { streamInfoHandlers } from './stream-info';
import { streamReadHandlers } from './stream-reads';
import { boundedCount, createStream, entriesReply, idReply, parseAddOrTrim, reservedEntriesReply, streamAt } from './stream-values';

const WRONG_ARITY_XADD = error(wrongArityText('xadd'));
/** Redis refuses entries past a listpack's 32-bit size. */
const MAX_ENTRY_BYTES = 2 ** 30;

function xadd(args: readonly string[], ctx: CommandContext): Reply {
  const parsed = parseAddOrTrim(args, true);
  if (isErrorReply(parsed)) return parsed;
  const fieldsAt = parsed.idIndex + 1;
  const pairs = args.length - fieldsAt;
  if (pairs < 2 || pairs % 2 === 1) return WRONG_ARITY_XADD;
  if (parsed.id?.seqGiven && parsed.id.id === MIN_ID) return error('ERR The ID specified in XADD must be greater than 0-0');
  const found = streamAt(ctx, args[1]);
  if (isErrorReply(found)) return found;
  if (!found && parsed.noMakeStream) return NIL;
  const value = found ?? createStream(ctx, args[1]);
  const { stream } = value;
  if (stream.lastId === MAX_ID) return error('ERR The stream has exhausted the last possible ID, unable to add more items');
  const id = nextId(stream.lastId, parsed.id, ctx.now);
  if (id === undefined || id <= stream.lastId) return error('ERR The ID specified in XADD is equal or smaller than the target stream top item');
  let bytes = 0;
  for (let index = fieldsAt; index < args.length; index++) bytes += args[index].length;
  if (bytes > MAX_ENTRY_BYTES) return error('ERR Elements are too large to be stored');
  stream.append(id, args.slice(fieldsAt));
  if (parsed.trim) stream.trim(parsed.trim);
  return idReply(id);
}

/** The ID XADD gives a new entry: explicit, `<ms>-*` (next sequence in that ms), or from the clock. */
function nextId(last: StreamId, given: { id: StreamId; seqGiven: boolean } | undefined, now: number): StreamId | undefined {
  if (given?.seqGiven) return given.id;
  if (given) {
    if (msOf(last) !== msOf(given.id)) return given.id;
    return seqOf(last) === (1n << 64n) - 1n ? undefined : last + 1n;
  }
  const ms = BigInt(now);
  return ms > msOf(last) ? idOf(ms, 0n) : last + 1n;
}

function xlen(args: readonly string[], ctx: CommandContext): Reply {
  const value = streamAt(ctx, args[1]);
  return isErrorReply(value) ? value : integer(value?.stream.length ?? 0);
}

function xrange(reverse: boolean) {
  return (args: readonly string[], ctx: CommandContext): Reply => {
    const start = parseRangeBound(args[reverse ? 3 : 2], 'start');
    if (isErrorReply(start)) return start;
    const end = parseRangeBound(args[reverse ? 2 : 3], 'end');
    if (isErrorReply(end)) return end;
    let count = -1;
    for (let index = 4; index < args.length; index++) {
      if (args[index].toLowerCase() !== 'count' || index + 1 >= args.length) return SYNTAX_ERROR;
      const parsed = parseInteger(args[++index]);
      if (isErrorReply(parsed)) return parsed;
      count = Math.max(parsed, 0);
    }
    const value = streamAt(ctx, args[1]);
    if (isErrorReply(value)) return value;
    if (!value) return entriesReply([]);
    if (count === 0) return NULL_ARRAY;
    return reservedEntriesReply(value.stream.range(start, end, boundedCount(Math.max(count, 0), ctx), reverse), ctx);
  };
}

function xdel(args: readonly string[], ctx: CommandContext): Reply {
  const value = streamAt(ctx, args[1]);
  if (isErrorReply(value)) return value;
  if (!value) return integer(0);
  const ids: StreamId[] = [];
  for (const text of args.slice(2)) {
    const id = parseStrictId(text);
    if (isErrorReply(id)) return id;
    ids.push(id);
  }
  const deleted = ids.filter((id) => value.stream.delete(id));
  value.stream.noteDeleted(deleted);
  return integer(deleted.length);
}

function xtrim(args: readonly string[], ctx: CommandContext): Reply {
  const parsed = parseAddOrTrim(args, false);
  if (isErrorReply(parsed)) return parsed;
  const value = streamAt(ctx, args[1]);
  if (isErrorReply(value)) return value;
  if (!value || !parsed.trim) return integer(0);
  return integer(value.stream.trim(parsed.trim));
}

function xsetid(args: readonly string[], ctx: CommandContext): Reply {
  const id = parseStrictId(args[2]);
  if (isErrorReply(id)) return id;
  let entriesAdded: bigint | undefined;
  let maxDeletedId = MIN_ID;
  for (let index = 3; index < args.length; index += 2) {
    const option = args[index].toLowerCase();
    if (index + 1 >= args.length) return SYNTAX_ERROR;
    if (option === 'entriesadded') {
      const parsed = parseInteger(args[index + 1]);
      if (isErrorReply(parsed)) return parsed;
      if (parsed < 0) return error('ERR entries_added must be positive');
      entriesAdded = BigInt(args[index + 1]);
    } else if (option === 'maxdeletedid') {
      const parsed = parseStrictId(args[index + 1]);
      if (isErrorReply(parsed)) return parsed;
      if (id < parsed) return error('ERR The ID specified in XSETID is smaller than the provided max_deleted_entry_id');
      maxDeletedId = parsed;
    } else return SYNTAX_ERROR;
  }
  const value = streamAt(ctx, args[1]);
  if (isErrorReply(value)) return value;
  if (!value) return error('ERR no such key');
  const { stream } = value;
  if (stream.length > 0) {
    if (id < stream.lastLiveId()) return error('ERR The ID specified in XSETID is smaller than the target stream top item');
    if (entriesAdded !== undefined && BigInt(stream.length) > entriesAdded) {
      return error('ERR The entries_added specified in XSETID is smaller than the target stream length');
    }
  }
  stream.lastId = id;
  if (entriesAdded !== undefined) stream.entriesAdded = entriesAdded;
  if (maxDeletedId !== MIN_ID) stream.maxDeletedId = maxDeletedId;
  return OK;
}

export const streamCommandHandlers: CommandHandlers = {
  xadd,
  xlen,
  xrange: xrange(false),
  xrevrange: xrange(true),
  xdel,
  xtrim,
  xsetid,
  ...streamReadHandlers,
  ...streamGroupHandlers,
  ...streamClaimHandlers,
  ...streamInfoHandlers,
  ...streamHelpHandlers,
};
