// Generic key commands: DEL, UNLINK, EXISTS, TOUCH, TYPE, RENAME, RENAMENX and COPY.
// Listing commands (KEYS, SCAN, RANDOMKEY) live in key-listing.ts, expiry in expiry.ts.
import { error, integer, OK, simple, type Reply } from '../../reply';
import { isErrorReply, parseInteger, SYNTAX_ERROR } from '../arguments';
import type { CommandContext, CommandHandlers } from '../handler';
import { cloneValue } from '../keyspace';

const NO_SUCH_KEY = error('ERR no such key');

function countKeys(remove: boolean) {
  return (args: readonly string[], ctx: CommandContext): Reply => {
    let count = 0;
    for (const key of args.slice(1)) {
      if (ctx.db.lookup(key, ctx.now) === undefined) continue;
      if (remove) ctx.db.delete(key);
      count++;
    }
    return integer(count);
  };
}

function type(args: readonly string[], ctx: CommandContext): Reply {
  return simple(ctx.db.lookup(args[1], ctx.now)?.type ?? 'none');
}

function renameCommand(onlyIfAbsent: boolean) {
  return (args: readonly string[], ctx: CommandContext): Reply => {
    const [, source, destination] = args;
    const value = ctx.db.lookup(source, ctx.now);
    if (value === undefined) return NO_SUCH_KEY;
    if (source === destination) return onlyIfAbsent ? integer(0) : OK;
    if (onlyIfAbsent && ctx.db.lookup(destination, ctx.now) !== undefined) return integer(0);
    const deadline = ctx.db.deadline(source);
    ctx.db.delete(source);
    ctx.db.delete(destination);
    ctx.db.set(destination, value);
    ctx.db.setDeadline(destination, deadline);
    return onlyIfAbsent ? integer(1) : OK;
  };
}

function copy(args: readonly string[], ctx: CommandContext): Reply {
  const [, source, destination] = args;
  let replace = false;
  for (let index = 3; index < args.length; index++) {
    const option = args[index].toLowerCase();
    if (option === 'replace') replace = true;
    else if (option === 'db' && index + 1 < args.length) {
      const db = parseInteger(args[++index]);
      if (isErrorReply(db)) return db;
      // The memory engine has one database, as the REST API exposes one.
      if (db !== 0) return error('ERR DB index is out of range');
    } else return SYNTAX_ERROR;
  }
  // Hosted Upstash copies nothing onto the key itself (0) where Redis answers ERR source and
  // destination objects are the same; the official @upstash/redis suite expects Upstash's 0 (issue 29).
  if (source === destination) return integer(0);
  const value = ctx.db.lookup(source, ctx.now);
  if (value === undefined) return integer(0);
  if (ctx.db.lookup(destination, ctx.now) !== undefined) {
    if (!replace) return integer(0);
    ctx.db.delete(destination);
  }
  ctx.db.set(destination, cloneValue(value));
  ctx.db.setDeadline(destination, ctx.db.deadline(source));
  return integer(1);
}

export const keyCommandHandlers: CommandHandlers = {
  del: countKeys(true),
  unlink: countKeys(true),
  exists: countKeys(false),
  touch: countKeys(false),
  type,
  rename: renameCommand(false),
  renamenx: renameCommand(true),
  copy,
};
