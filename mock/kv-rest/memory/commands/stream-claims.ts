// XCLAIM and XAUTOCLAIM: moving pending entries to another consumer of the group, with Redis 7.0's
// option handling (IDLE, TIME, RETRYCOUNT, FORCE, JUSTID, LASTID; COUNT for XAUTOCLAIM). Entries
// deleted from the stream meanwhile leave the pending lists as they are met, as in Redis.
import { array, bulk, error, type ErrorReply, type Reply } from '../../reply';
import { isErrorReply, parseInteger, SYNTAX_ERROR } from '../arguments';
import type { CommandContext, CommandHandlers } from '../handler';
import type { StreamValue } from '../keyspace';
import type { Consumer, ConsumerGroup, PendingEntry } from '../stream';
import { assignPending, consumerFor, dropPending } from '../stream-consumers';
import { formatId, parseRangeBound, parseStrictId, type StreamId } from '../stream-id';
import { entryReply, idReply, noGroup, streamAt } from './stream-values';

function claimTarget(args: readonly string[], ctx: CommandContext): { value: StreamValue; group: ConsumerGroup } | ErrorReply {
  const value = streamAt(ctx, args[1]);
  if (isErrorReply(value)) return value;
  const group = value?.stream.groups.get(args[2]);
  if (!value || !group) return noGroup(`No such key '${args[1]}' or consumer group '${args[2]}'`);
  return { value, group };
}

function parseMinIdle(text: string, command: string): number | ErrorReply {
  const parsed = parseInteger(text);
  return isErrorReply(parsed) ? error(`ERR Invalid min-idle-time argument for ${command}`) : Math.max(parsed, 0);
}

interface ClaimOptions {
  force: boolean;
  justId: boolean;
  /** Absolute delivery time to record, or undefined for now. */
  deliveryTime: number | undefined;
  retryCount: number | undefined;
  lastId: StreamId;
}

function parseClaimOptions(args: readonly string[], from: number, now: number): ClaimOptions | ErrorReply {
  const options: ClaimOptions = { force: false, justId: false, deliveryTime: undefined, retryCount: undefined, lastId: 0n };
  const numberOption = (text: string, name: string): number | ErrorReply => {
    const parsed = parseInteger(text);
    return isErrorReply(parsed) ? error(`ERR Invalid ${name} option argument for XCLAIM`) : parsed;
  };
  for (let index = from; index < args.length; index++) {
    const more = args.length - 1 - index;
    const option = args[index].toLowerCase();
    if (option === 'force') options.force = true;
    else if (option === 'justid') options.justId = true;
    else if ((option === 'idle' || option === 'time' || option === 'retrycount') && more) {
      const parsed = numberOption(args[++index], option.toUpperCase());
      if (isErrorReply(parsed)) return parsed;
      if (option === 'idle') options.deliveryTime = now - parsed;
      else if (option === 'time') options.deliveryTime = parsed;
      else options.retryCount = parsed;
    } else if (option === 'lastid' && more) {
      const parsed = parseStrictId(args[++index]);
      if (isErrorReply(parsed)) return parsed;
      options.lastId = parsed;
    } else return error(`ERR Unrecognized XCLAIM option '${args[index]}'`);
  }
  return options;
}

function xclaim(args: readonly string[], ctx: CommandContext): Reply {
  const target = claimTarget(args, ctx);
  if (isErrorReply(target)) return target;
  const { value, group } = target;
  const minIdle = parseMinIdle(args[4], 'XCLAIM');
  if (isErrorReply(minIdle)) return minIdle;
  const ids: StreamId[] = [];
  let index = 5;
  for (; index < args.length; index++) {
    const id = parseStrictId(args[index]);
    if (isErrorReply(id)) break;
    ids.push(id);
  }
  const options = parseClaimOptions(args, index, ctx.now);
  if (isErrorReply(options)) return options;
  if (options.lastId > group.lastId) group.lastId = options.lastId;
  const deliveryTime = options.deliveryTime === undefined || options.deliveryTime < 0 || options.deliveryTime > ctx.now ? ctx.now : options.deliveryTime;
  let consumer: Consumer | undefined;
  const claimed: Reply[] = [];
  for (const id of ids) {
    const entry = value.stream.get(id);
    let pending: PendingEntry | undefined = group.pending.get(id);
    if (!entry) {
      dropPending(group, id);
      continue;
    }
    if (options.force && !pending) {
      pending = { consumer: undefined, deliveryTime: 0, deliveryCount: 0 };
      group.pending.set(id, pending);
    }
    if (!pending) continue;
    if (pending.consumer && minIdle && ctx.now - pending.deliveryTime < minIdle) continue;
    consumer ??= consumerFor(group, args[3], ctx.now);
    pending.deliveryTime = deliveryTime;
    if (options.retryCount !== undefined && options.retryCount >= 0) pending.deliveryCount = options.retryCount;
    else if (!options.justId) pending.deliveryCount++;
    assignPending(id, pending, consumer);
    claimed.push(options.justId ? idReply(id) : entryReply(entry));
  }
  return array(claimed);
}

/** COUNT's upper bound in Redis: LONG_MAX / 16, so that COUNT x 10 attempts cannot overflow. */
const MAX_AUTOCLAIM_COUNT = Math.floor(Number(9223372036854775807n / 16n));

function xautoclaim(args: readonly string[], ctx: CommandContext): Reply {
  const minIdle = parseMinIdle(args[4], 'XAUTOCLAIM');
  if (isErrorReply(minIdle)) return minIdle;
  const start = parseRangeBound(args[5], 'start');
  if (isErrorReply(start)) return start;
  let count = 100;
  let justId = false;
  for (let index = 6; index < args.length; index++) {
    const option = args[index].toLowerCase();
    if (option === 'count' && index + 1 < args.length) {
      const parsed = parseInteger(args[++index]);
      if (isErrorReply(parsed) || parsed < 1 || parsed > MAX_AUTOCLAIM_COUNT) return error('ERR COUNT must be > 0');
      count = parsed;
    } else if (option === 'justid') justId = true;
    else return SYNTAX_ERROR;
  }
  const target = claimTarget(args, ctx);
  if (isErrorReply(target)) return target;
  const { value, group } = target;
  // Redis examines at most 10 x COUNT pending entries per call.
  let attempts = count * 10;
  let consumer: Consumer | undefined;
  const claimed: Reply[] = [];
  const deleted: Reply[] = [];
  const ids = [...group.pending.ids()];
  let index = group.pending.firstAtOrAfter(start);
  for (; attempts > 0 && count > 0 && index < ids.length; index++, attempts--) {
    const id = ids[index];
    const pending = group.pending.get(id) as PendingEntry;
    const entry = value.stream.get(id);
    if (!entry) {
      dropPending(group, id);
      deleted.push(idReply(id));
      count--;
      continue;
    }
    if (minIdle && ctx.now - pending.deliveryTime < minIdle) continue;
    consumer ??= consumerFor(group, args[3], ctx.now);
    pending.deliveryTime = ctx.now;
    if (!justId) pending.deliveryCount++;
    assignPending(id, pending, consumer);
    claimed.push(justId ? idReply(id) : entryReply(entry));
    count--;
  }
  const next = index < ids.length ? formatId(ids[index]) : '0-0';
  return array([bulk(next), array(claimed), array(deleted)]);
}

export const streamClaimHandlers: CommandHandlers = { xclaim, xautoclaim };
