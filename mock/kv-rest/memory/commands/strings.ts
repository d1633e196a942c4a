// String commands: GET/SET and their variants, multi-key MGET/MSET, APPEND, STRLEN and the range
// commands. Counters (INCR family) live in counters.ts.
import { wrongArityText } from '../../command-table';
import { array, bulk, bulkOrNil, error, integer, NIL, OK, type Reply } from '../../reply';
import { isErrorReply, parseInteger } from '../arguments';
import { expiryDeadline, parseStringWriteOptions } from '../expiry-options';
import type { CommandContext, CommandHandlers } from '../handler';
import { WRONGTYPE } from '../keyspace';
import { MAX_STRING_BYTES, STRING_TOO_BIG } from '../string-size';


/** Stores a string, honouring a deadline that is already past by deleting instead (as Redis does). */
function storeString(ctx: CommandContext, key: string, value: string, deadline: number | undefined, keepTtl = false): void {
  if (deadline !== undefined && deadline <= ctx.now) {
    ctx.db.delete(key);
    return;
  }
  ctx.db.set(key, { type: 'string', value }, keepTtl);
  if (deadline !== undefined) ctx.db.setDeadline(key, deadline);
}

function set(args: readonly string[], ctx: CommandContext): Reply {
  const [, key, value] = args;
  const options = parseStringWriteOptions(args, 3, 'set');
  if (isErrorReply(options)) return options;
  const deadline = options.expiry && expiryDeadline(options.expiry.amount, options.expiry.unit, ctx.now, 'set');
  if (isErrorReply(deadline)) return deadline;
  const old = ctx.db.lookup(key, ctx.now);
  if (options.get && old !== undefined && old.type !== 'string') return WRONGTYPE;
  const previous = options.get ? bulkOrNil(old?.type === 'string' ? old.value : undefined) : undefined;
  if ((options.condition === 'nx' && old !== undefined) || (options.condition === 'xx' && old === undefined)) return previous ?? NIL;
  storeString(ctx, key, value, deadline, options.keepTtl);
  return previous ?? OK;
}

function setWithExpiry(unit: 'ex' | 'px') {
  return (args: readonly string[], ctx: CommandContext): Reply => {
    const [name, key, amount, value] = args;
    const deadline = expiryDeadline(amount, unit, ctx.now, name.toLowerCase());
    if (typeof deadline !== 'number') return deadline;
    storeString(ctx, key, value, deadline);
    return OK;
  };
}

function get(args: readonly string[], ctx: CommandContext): Reply {
  const found = ctx.db.lookupTyped(args[1], 'string', ctx.now);
  if (isErrorReply(found)) return found;
  return bulkOrNil(found?.value);
}

function getex(args: readonly string[], ctx: CommandContext): Reply {
  const key = args[1];
  const options = parseStringWriteOptions(args, 2, 'getex');
  if (isErrorReply(options)) return options;
  const found = ctx.db.lookupTyped(key, 'string', ctx.now);
  if (found === undefined || isErrorReply(found)) return found ?? NIL;
  const deadline = options.expiry && expiryDeadline(options.expiry.amount, options.expiry.unit, ctx.now, 'getex');
  if (isErrorReply(deadline)) return deadline;
  if (deadline !== undefined && deadline <= ctx.now) ctx.db.delete(key);
  else if (deadline !== undefined) ctx.db.setDeadline(key, deadline);
  else if (options.persist) ctx.db.setDeadline(key, undefined);
  return bulk(found.value);
}

function getdel(args: readonly string[], ctx: CommandContext): Reply {
  const found = ctx.db.lookupTyped(args[1], 'string', ctx.now);
  if (found === undefined || isErrorReply(found)) return found ?? NIL;
  ctx.db.delete(args[1]);
  return bulk(found.value);
}

function getset(args: readonly string[], ctx: CommandContext): Reply {
  const found = ctx.db.lookupTyped(args[1], 'string', ctx.now);
  if (isErrorReply(found)) return found;
  ctx.db.set(args[1], { type: 'string', value: args[2] });
  return bulkOrNil(found?.value);
}

function setnx(args: readonly string[], ctx: CommandContext): Reply {
  if (ctx.db.lookup(args[1], ctx.now) !== undefined) return integer(0);
  ctx.db.set(args[1], { type: 'string', value: args[2] });
  return integer(1);
}

function mget(args: readonly string[], ctx: CommandContext): Reply {
  // One item per key named: reserved before any is looked up (the values' bytes are counted once built).
  return ctx.reserveReply(args.length - 1, 0) ?? array(
    args.slice(1).map((key) => {
      const value = ctx.db.lookup(key, ctx.now);
      return value?.type === 'string' ? bulk(value.value) : NIL;
    }),
  );
}

function msetGeneric(onlyIfNoneExists: boolean) {
  return (args: readonly string[], ctx: CommandContext): Reply => {
    if (args.length % 2 === 0) return error(wrongArityText(args[0].toLowerCase()));
    if (onlyIfNoneExists) {
      for (let index = 1; index < args.length; index += 2) if (ctx.db.lookup(args[index], ctx.now) !== undefined) return integer(0);
    }
    for (let index = 1; index < args.length; index += 2) ctx.db.set(args[index], { type: 'string', value: args[index + 1] });
    return onlyIfNoneExists ? integer(1) : OK;
  };
}

function append(args: readonly string[], ctx: CommandContext): Reply {
  const [, key, suffix] = args;
  const found = ctx.db.lookupTyped(key, 'string', ctx.now);
  if (isErrorReply(found)) return found;
  if (found === undefined) {
    ctx.db.set(key, { type: 'string', value: suffix });
    return integer(suffix.length);
  }
  if (found.value.length + suffix.length > MAX_STRING_BYTES) return STRING_TOO_BIG;
  found.value += suffix;
  found.raw = true;
  return integer(found.value.length);
}

function strlen(args: readonly string[], ctx: CommandContext): Reply {
  const found = ctx.db.lookupTyped(args[1], 'string', ctx.now);
  if (isErrorReply(found)) return found;
  return integer(found?.value.length ?? 0);
}

function getrange(args: readonly string[], ctx: CommandContext): Reply {
  let start = parseInteger(args[2]);
  if (isErrorReply(start)) return start;
  let end = parseInteger(args[3]);
  if (isErrorReply(end)) return end;
  const found = ctx.db.lookupTyped(args[1], 'string', ctx.now);
  if (isErrorReply(found)) return found;
  const value = found?.value ?? '';
  const length = value.length;
  if (start < 0 && end < 0 && start > end) return bulk('');
  if (start < 0) start = Math.max(0, length + start);
  if (end < 0) end = Math.max(0, length + end);
  if (end >= length) end = length - 1;
  if (start > end || length === 0) return bulk('');
  return bulk(value.slice(start, end + 1));
}

function setrange(args: readonly string[], ctx: CommandContext): Reply {
  const [, key, offsetText, patch] = args;
  const offset = parseInteger(offsetText);
  if (isErrorReply(offset)) return offset;
  if (offset < 0) return error('ERR offset is out of range');
  const found = ctx.db.lookupTyped(key, 'string', ctx.now);
  if (isErrorReply(found)) return found;
  const current = found?.value ?? '';
  if (patch.length === 0) return integer(current.length);
  if (offset + patch.length > MAX_STRING_BYTES) return STRING_TOO_BIG;
  const padded = current.length < offset ? current + '\0'.repeat(offset - current.length) : current;
  const value = padded.slice(0, offset) + patch + padded.slice(offset + patch.length);
  if (found) Object.assign(found, { value, raw: true });
  else ctx.db.set(key, { type: 'string', value, raw: true });
  return integer(value.length);
}

export const stringCommandHandlers: CommandHandlers = {
  get,
  set,
  setex: setWithExpiry('ex'),
  psetex: setWithExpiry('px'),
  setnx,
  getset,
  getex,
  getdel,
  mget,
  mset: msetGeneric(false),
  msetnx: msetGeneric(true),
  append,
  strlen,
  getrange,
  substr: getrange,
  setrange,
};
