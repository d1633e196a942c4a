// List commands (non-blocking): pushes, pops with COUNT, LRANGE/LINDEX/LSET/LREM/LTRIM/LINSERT,
// LPOS and the moves RPOPLPUSH and LMOVE, with Redis 7.0's replies and errors.
import { wrongArityText } from '../../command-table';
import { array, bulk, bulkArray, bulkOrNil, EMPTY_ARRAY, error, integer, NIL, NULL_ARRAY, OK, type ErrorReply, type Reply } from '../../reply';
import { isErrorReply, parseInteger, SYNTAX_ERROR } from '../arguments';
import type { CommandContext, CommandHandlers } from '../handler';
import type { ListValue } from '../keyspace';
import { refuseValues } from '../reply-limits';
import { reservedBulkArray } from '../reserved-replies';

type End = 'left' | 'right';

function listFor(ctx: CommandContext, key: string): ListValue | undefined | ErrorReply {
  return ctx.db.lookupTyped(key, 'list', ctx.now);
}

/** Normalises a possibly negative index; may still be out of range. */
const absoluteIndex = (index: number, length: number): number => (index < 0 ? length + index : index);

function push(end: End, onlyIfExists: boolean) {
  return (args: readonly string[], ctx: CommandContext): Reply => {
    const key = args[1];
    const existing = listFor(ctx, key);
    if (isErrorReply(existing)) return existing;
    if (existing === undefined && onlyIfExists) return integer(0);
    const list: ListValue = existing ?? { type: 'list', items: [] };
    const values = args.slice(2);
    if (end === 'right') append(list.items, values);
    else prependReversed(list.items, values);
    // A new list is stored once filled, so nothing half-made is left behind.
    if (!existing) ctx.db.set(key, list);
    return integer(list.items.length);
  };
}

/** Appends one value at a time: spreading ~100k values into push() overflows the call stack. */
function append(items: string[], values: readonly string[]): void {
  for (const value of values) items.push(value);
}

/** LPUSH's order (the last value ends up first), moving the old items once rather than per value. */
function prependReversed(items: string[], values: readonly string[]): void {
  const old = items.length;
  // Grown by pushes rather than by setting `length`, which would leave the array holey (slower).
  for (let index = 0; index < values.length; index++) items.push('');
  items.copyWithin(values.length, 0, old);
  for (let index = 0; index < values.length; index++) items[index] = values[values.length - 1 - index];
}

function pop(end: End) {
  return (args: readonly string[], ctx: CommandContext): Reply => {
    if (args.length > 3) return error(wrongArityText(args[0].toLowerCase()));
    let count: number | undefined;
    if (args.length === 3) {
      const parsed = parseInteger(args[2]);
      if (isErrorReply(parsed) || parsed < 0) return error('ERR value is out of range, must be positive');
      count = parsed;
    }
    const list = listFor(ctx, args[1]);
    if (isErrorReply(list)) return list;
    if (list === undefined) return count === undefined ? NIL : NULL_ARRAY;
    if (count === undefined) {
      const value = end === 'left' ? list.items.shift() : list.items.pop();
      ctx.db.deleteIfEmpty(args[1], list);
      return bulkOrNil(value);
    }
    const from = end === 'left' ? 0 : Math.max(0, list.items.length - count);
    const refused = refuseValues(list.items.slice(from, from + count), ctx.replyLimits);
    if (refused) return refused;
    const taken = end === 'left' ? list.items.splice(0, count) : list.items.splice(from).reverse();
    ctx.db.deleteIfEmpty(args[1], list);
    return bulkArray(taken);
  };
}

/** A read of one list with integer arguments at positions 2.. parsed first, as Redis does. */
function listRead(integerArgs: number, read: (list: ListValue | undefined, numbers: number[], args: readonly string[], ctx: CommandContext) => Reply) {
  return (args: readonly string[], ctx: CommandContext): Reply => {
    const numbers: number[] = [];
    for (let index = 2; index < 2 + integerArgs; index++) {
      const parsed = parseInteger(args[index]);
      if (isErrorReply(parsed)) return parsed;
      numbers.push(parsed);
    }
    const list = listFor(ctx, args[1]);
    return isErrorReply(list) ? list : read(list, numbers, args, ctx);
  };
}

/** The inclusive range [start, stop] of LRANGE/LTRIM clamped to the list, or undefined when empty. */
function clampRange(start: number, stop: number, length: number): [number, number] | undefined {
  const first = Math.max(0, absoluteIndex(start, length));
  const last = Math.min(length - 1, absoluteIndex(stop, length));
  return first > last || first >= length ? undefined : [first, last];
}

const llen = listRead(0, (list) => integer(list?.items.length ?? 0));
const lrange = listRead(2, (list, [start, stop], _args, ctx) => {
  const range = list && clampRange(start, stop, list.items.length);
  return range ? reservedBulkArray(list.items, ctx, range[0], range[1] + 1) : EMPTY_ARRAY;
});
const lindex = listRead(1, (list, [index]) => bulkOrNil(list?.items[absoluteIndex(index, list.items.length)]));

function lset(args: readonly string[], ctx: CommandContext): Reply {
  const index = parseInteger(args[2]);
  if (isErrorReply(index)) return index;
  const list = listFor(ctx, args[1]);
  if (isErrorReply(list)) return list;
  if (list === undefined) return error('ERR no such key');
  const position = absoluteIndex(index, list.items.length);
  if (position < 0 || position >= list.items.length) return error('ERR index out of range');
  list.items[position] = args[3];
  return OK;
}

function lrem(args: readonly string[], ctx: CommandContext): Reply {
  const count = parseInteger(args[2]);
  if (isErrorReply(count)) return count;
  const list = listFor(ctx, args[1]);
  if (list === undefined || isErrorReply(list)) return list ?? integer(0);
  const element = args[3];
  const limit = count === 0 ? Infinity : Math.abs(count);
  // One pass that slides the survivors over the removed items (splicing each match out would cost
  // the list's length each time): from the head for a positive count, from the tail for a negative.
  const { items } = list;
  let removed = 0;
  if (count >= 0) {
    let write = 0;
    for (const item of items) {
      if (item === element && removed < limit) removed++;
      else items[write++] = item;
    }
    items.length = write;
  } else {
    let write = items.length - 1;
    for (let read = items.length - 1; read >= 0; read--) {
      if (items[read] === element && removed < limit) removed++;
      else items[write--] = items[read];
    }
    items.splice(0, write + 1);
  }
  ctx.db.deleteIfEmpty(args[1], list);
  return integer(removed);
}

function ltrim(args: readonly string[], ctx: CommandContext): Reply {
  const start = parseInteger(args[2]);
  if (isErrorReply(start)) return start;
  const stop = parseInteger(args[3]);
  if (isErrorReply(stop)) return stop;
  const list = listFor(ctx, args[1]);
  if (list === undefined || isErrorReply(list)) return list ?? OK;
  const range = clampRange(start, stop, list.items.length);
  // In place, without spreading the kept items into a call (a long list would overflow the stack).
  if (range) list.items.copyWithin(0, range[0], range[1] + 1);
  list.items.length = range ? range[1] - range[0] + 1 : 0;
  ctx.db.deleteIfEmpty(args[1], list);
  return OK;
}

function linsert(args: readonly string[], ctx: CommandContext): Reply {
  const [, key, where, pivot, element] = args;
  const side = where.toLowerCase();
  if (side !== 'before' && side !== 'after') return SYNTAX_ERROR;
  const list = listFor(ctx, key);
  if (list === undefined || isErrorReply(list)) return list ?? integer(0);
  const index = list.items.indexOf(pivot);
  if (index < 0) return integer(-1);
  list.items.splice(side === 'before' ? index : index + 1, 0, element);
  return integer(list.items.length);
}

interface LposOptions {
  rank: number;
  count?: number;
  maxlen: number;
}

function parseLposOptions(args: readonly string[]): LposOptions | ErrorReply {
  const options: LposOptions = { rank: 1, maxlen: 0 };
  for (let index = 3; index < args.length; index += 2) {
    const option = args[index].toLowerCase();
    if (index + 1 >= args.length || !['rank', 'count', 'maxlen'].includes(option)) return SYNTAX_ERROR;
    const value = parseInteger(args[index + 1]);
    if (isErrorReply(value)) return value;
    if (option === 'rank') {
      if (value === 0) return error("ERR RANK can't be zero: use 1 to start from the first match, 2 from the second ... or use negative to start from the end of the list");
      options.rank = value;
    } else if (option === 'count') {
      if (value < 0) return error("ERR COUNT can't be negative");
      options.count = value;
    } else {
      if (value < 0) return error("ERR MAXLEN can't be negative");
      options.maxlen = value;
    }
  }
  return options;
}

function lpos(args: readonly string[], ctx: CommandContext): Reply {
  const options = parseLposOptions(args);
  if (isErrorReply(options)) return options;
  const list = listFor(ctx, args[1]);
  if (isErrorReply(list)) return list;
  const items = list?.items ?? [];
  const wanted = options.count === undefined ? 1 : options.count === 0 ? Infinity : options.count;
  const step = options.rank > 0 ? 1 : -1;
  const compared = options.maxlen === 0 ? items.length : Math.min(options.maxlen, items.length);
  let skip = Math.abs(options.rank) - 1;
  const found: number[] = [];
  for (let seen = 0, index = step > 0 ? 0 : items.length - 1; seen < compared && found.length < wanted; seen++, index += step) {
    if (items[index] !== args[2]) continue;
    if (skip > 0) skip--;
    else found.push(index);
  }
  if (options.count !== undefined) return array(found.map((index) => integer(index)));
  return found.length > 0 ? integer(found[0]) : NIL;
}

function parseEnd(text: string): End | undefined {
  const lower = text.toLowerCase();
  return lower === 'left' || lower === 'right' ? lower : undefined;
}

/** Pops from `from` of the source and pushes to `to` of the destination (the same list allowed). */
function move(ctx: CommandContext, source: string, destination: string, from: End, to: End): Reply {
  const list = listFor(ctx, source);
  if (list === undefined || isErrorReply(list)) return list ?? NIL;
  const target = listFor(ctx, destination);
  if (isErrorReply(target)) return target;
  const value = (from === 'left' ? list.items.shift() : list.items.pop()) as string;
  let targetList = source === destination ? list : target;
  if (targetList === undefined) {
    targetList = { type: 'list', items: [] };
    ctx.db.set(destination, targetList);
  }
  if (to === 'left') targetList.items.unshift(value);
  else targetList.items.push(value);
  ctx.db.deleteIfEmpty(source, list);
  return bulk(value);
}

function lmove(args: readonly string[], ctx: CommandContext): Reply {
  const from = parseEnd(args[3]);
  const to = parseEnd(args[4]);
  if (!from || !to) return SYNTAX_ERROR;
  return move(ctx, args[1], args[2], from, to);
}

export const listCommandHandlers: CommandHandlers = {
  lpush: push('left', false),
  rpush: push('right', false),
  lpushx: push('left', true),
  rpushx: push('right', true),
  lpop: pop('left'),
  rpop: pop('right'),
  llen,
  lrange,
  lindex,
  lset,
  lrem,
  ltrim,
  linsert,
  lpos,
  rpoplpush: (args, ctx) => move(ctx, args[1], args[2], 'right', 'left'),
  lmove,
};
