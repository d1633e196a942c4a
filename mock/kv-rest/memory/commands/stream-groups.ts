// Consumer groups: XGROUP CREATE/SETID/DESTROY/CREATECONSUMER/DELCONSUMER, XACK and XPENDING, with
// Redis 7.0's checks in Redis's order. Claiming (XCLAIM, XAUTOCLAIM) lives in stream-claims.ts.
import { unknownSubcommandOrArityText } from '../../command-table';
import { array, bulk, error, integer, NIL, NULL_ARRAY, OK, type ErrorReply, type Reply } from '../../reply';
import { isErrorReply, parseInteger, SYNTAX_ERROR } from '../arguments';
import type { CommandContext, CommandHandlers } from '../handler';
import type { StreamValue } from '../keyspace';
import { OrderedIds } from '../ordered-ids';
import { byName, type ConsumerGroup, type PendingEntry } from '../stream';
import { consumerFor, deleteConsumer, dropPending } from '../stream-consumers';
import { parseRangeBound, parseStrictId, parseStreamId, type StreamId } from '../stream-id';
import { createStream, idReply, noGroup, streamAt } from './stream-values';

const subcommandSyntaxError = (args: readonly string[]): ErrorReply =>
  error(unknownSubcommandOrArityText(args[1], 'xgroup'));

interface GroupTarget {
  readonly value: StreamValue | undefined;
  readonly group: ConsumerGroup | undefined;
  readonly makeStream: boolean;
  /** ENTRIESREAD, or undefined for "unknown" (-1, the default). */
  readonly entriesRead: bigint | undefined;
}

/** The checks every XGROUP subcommand makes before its own work, in Redis's order. */
function groupTarget(args: readonly string[], ctx: CommandContext, groupRequired: boolean): GroupTarget | ErrorReply {
  const sub = args[1].toLowerCase();
  let makeStream = false;
  let entriesRead: bigint | undefined;
  for (let index = 5; index < args.length; ) {
    const option = args[index].toLowerCase();
    if (sub === 'create' && option === 'mkstream') {
      makeStream = true;
      index++;
    } else if ((sub === 'create' || sub === 'setid') && option === 'entriesread' && index + 1 < args.length) {
      const parsed = parseInteger(args[index + 1]);
      if (isErrorReply(parsed)) return parsed;
      if (parsed < 0 && parsed !== -1) return error('ERR value for ENTRIESREAD must be positive or -1');
      entriesRead = parsed === -1 ? undefined : BigInt(args[index + 1]);
      index += 2;
    } else return subcommandSyntaxError(args);
  }
  const value = streamAt(ctx, args[2]);
  if (isErrorReply(value)) return value;
  const group = value?.stream.groups.get(args[3]);
  if (!makeStream) {
    if (!value) {
      return error('ERR The XGROUP subcommand requires the key to exist. Note that for CREATE you may want to use the MKSTREAM option to create an empty stream automatically.');
    }
    if (!group && groupRequired) return noGroup(`No such consumer group '${args[3]}' for key name '${args[2]}'`);
  }
  return { value, group, makeStream, entriesRead };
}

function xgroupCreate(args: readonly string[], ctx: CommandContext): Reply {
  const target = groupTarget(args, ctx, false);
  if (isErrorReply(target)) return target;
  if (args.length > 8) return subcommandSyntaxError(args);
  let id: StreamId;
  if (args[4] === '$') id = target.value?.stream.lastId ?? 0n;
  else {
    const parsed = parseStrictId(args[4]);
    if (isErrorReply(parsed)) return parsed;
    id = parsed;
  }
  const { stream } = target.value ?? createStream(ctx, args[2]);
  if (stream.groups.has(args[3])) return error('BUSYGROUP Consumer Group name already exists');
  stream.groups.set(args[3], { lastId: id, entriesRead: target.entriesRead, pending: new OrderedIds(), consumers: new Map() });
  return OK;
}

function xgroupSetId(args: readonly string[], ctx: CommandContext): Reply {
  const target = groupTarget(args, ctx, true);
  if (isErrorReply(target)) return target;
  if (args.length !== 5 && args.length !== 7) return subcommandSyntaxError(args);
  const { value, group } = target;
  if (!value || !group) return subcommandSyntaxError(args);
  let id: StreamId;
  if (args[4] === '$') id = value.stream.lastId;
  else {
    const parsed = parseStreamId(args[4]);
    if (isErrorReply(parsed)) return parsed;
    id = parsed.id;
  }
  group.lastId = id;
  group.entriesRead = target.entriesRead;
  return OK;
}

function xgroupDestroy(args: readonly string[], ctx: CommandContext): Reply {
  const target = groupTarget(args, ctx, false);
  if (isErrorReply(target)) return target;
  return integer(target.value?.stream.groups.delete(args[3]) ? 1 : 0);
}

function xgroupCreateConsumer(args: readonly string[], ctx: CommandContext): Reply {
  const target = groupTarget(args, ctx, true);
  if (isErrorReply(target)) return target;
  if (!target.group || target.group.consumers.has(args[4])) return integer(0);
  consumerFor(target.group, args[4], ctx.now);
  return integer(1);
}

function xgroupDeleteConsumer(args: readonly string[], ctx: CommandContext): Reply {
  const target = groupTarget(args, ctx, true);
  if (isErrorReply(target)) return target;
  const consumer = target.group?.consumers.get(args[4]);
  return integer(target.group && consumer ? deleteConsumer(target.group, consumer) : 0);
}

function xack(args: readonly string[], ctx: CommandContext): Reply {
  const value = streamAt(ctx, args[1]);
  if (isErrorReply(value)) return value;
  const group = value?.stream.groups.get(args[2]);
  if (!group) return integer(0);
  const ids: StreamId[] = [];
  for (const text of args.slice(3)) {
    const id = parseStrictId(text);
    if (isErrorReply(id)) return id;
    ids.push(id);
  }
  let acknowledged = 0;
  for (const id of ids) if (dropPending(group, id)) acknowledged++;
  return integer(acknowledged);
}

interface PendingRange {
  readonly minIdle: number;
  readonly start: StreamId;
  readonly end: StreamId;
  readonly count: number;
  readonly consumer?: string;
}

function parsePendingRange(args: readonly string[]): PendingRange | ErrorReply {
  let at = 3;
  let minIdle = 0;
  if (args[3].toLowerCase() === 'idle') {
    const parsed = parseInteger(args[4]);
    if (isErrorReply(parsed)) return parsed;
    if (args.length < 8) return SYNTAX_ERROR;
    minIdle = parsed;
    at += 2;
  }
  const count = parseInteger(args[at + 2]);
  if (isErrorReply(count)) return count;
  const start = parseRangeBound(args[at], 'start');
  if (isErrorReply(start)) return start;
  const end = parseRangeBound(args[at + 1], 'end');
  if (isErrorReply(end)) return end;
  return { minIdle, start, end, count: Math.max(count, 0), consumer: args[at + 3] };
}

function pendingSummary(group: ConsumerGroup): Reply {
  const ids = group.pending.ids();
  if (ids.length === 0) return array([integer(0), NIL, NIL, NULL_ARRAY]);
  const holders = byName(group.consumers).filter(([, consumer]) => consumer.pending.size > 0);
  return array([
    integer(ids.length),
    idReply(ids[0]),
    idReply(ids[ids.length - 1]),
    array(holders.map(([name, consumer]) => array([bulk(name), bulk(String(consumer.pending.size))]))),
  ]);
}

function pendingEntries(pending: OrderedIds<PendingEntry>, range: PendingRange, now: number): Reply {
  const ids = pending.ids();
  const items: Reply[] = [];
  for (let index = pending.firstAtOrAfter(range.start); items.length < range.count && index < ids.length && ids[index] <= range.end; index++) {
    const entry = pending.get(ids[index]) as PendingEntry;
    if (range.minIdle && now - entry.deliveryTime < range.minIdle) continue;
    items.push(array([idReply(ids[index]), bulk(entry.consumer?.name ?? ''), integer(Math.max(now - entry.deliveryTime, 0)), integer(entry.deliveryCount)]));
  }
  return array(items);
}

function xpending(args: readonly string[], ctx: CommandContext): Reply {
  if (args.length !== 3 && (args.length < 6 || args.length > 9)) return SYNTAX_ERROR;
  const range = args.length >= 6 ? parsePendingRange(args) : undefined;
  if (isErrorReply(range)) return range;
  const value = streamAt(ctx, args[1]);
  if (isErrorReply(value)) return value;
  const group = value?.stream.groups.get(args[2]);
  if (!group) return noGroup(`No such key '${args[1]}' or consumer group '${args[2]}'`);
  if (!range) return pendingSummary(group);
  if (range.consumer === undefined) return pendingEntries(group.pending, range, ctx.now);
  const consumer = group.consumers.get(range.consumer);
  return consumer ? pendingEntries(consumer.pending, range, ctx.now) : array([]);
}

export const streamGroupHandlers: CommandHandlers = {
  'xgroup|create': xgroupCreate,
  'xgroup|setid': xgroupSetId,
  'xgroup|destroy': xgroupDestroy,
  'xgroup|createconsumer': xgroupCreateConsumer,
  'xgroup|delconsumer': xgroupDeleteConsumer,
  xack,
  xpending,
};
