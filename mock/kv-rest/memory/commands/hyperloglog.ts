// HyperLogLog commands: PFADD, PFCOUNT (one key or the union of several) and PFMERGE.
import { error, integer, OK, type ErrorReply, type Reply } from '../../reply';
import { isErrorReply } from '../arguments';
import type { CommandContext, CommandHandlers } from '../handler';
import { HyperLogLog } from '../hyperloglog';

const NOT_AN_HLL = error('WRONGTYPE Key is not a valid HyperLogLog string value.');

function hllAt(ctx: CommandContext, key: string): HyperLogLog | undefined | ErrorReply {
  const value = ctx.db.lookupTyped(key, 'string', ctx.now);
  if (value === undefined || isErrorReply(value)) return value;
  return HyperLogLog.decode(value.value) ?? NOT_AN_HLL;
}

function store(ctx: CommandContext, key: string, hll: HyperLogLog): void {
  const existing = ctx.db.lookupTyped(key, 'string', ctx.now);
  if (existing && !isErrorReply(existing)) existing.value = hll.encode();
  else ctx.db.set(key, { type: 'string', value: hll.encode(), raw: true });
}

function pfadd(args: readonly string[], ctx: CommandContext): Reply {
  const found = hllAt(ctx, args[1]);
  if (isErrorReply(found)) return found;
  const hll = found ?? new HyperLogLog();
  let changed = found === undefined;
  for (const element of args.slice(2)) if (hll.add(element)) changed = true;
  if (changed) store(ctx, args[1], hll);
  return integer(changed ? 1 : 0);
}

function pfcount(args: readonly string[], ctx: CommandContext): Reply {
  const union = new HyperLogLog();
  for (const key of args.slice(1)) {
    const hll = hllAt(ctx, key);
    if (isErrorReply(hll)) return hll;
    if (hll) union.merge(hll);
  }
  return integer(union.count());
}

function pfmerge(args: readonly string[], ctx: CommandContext): Reply {
  const merged = new HyperLogLog();
  for (const key of [args[1], ...args.slice(2)]) {
    const hll = hllAt(ctx, key);
    if (isErrorReply(hll)) return hll;
    if (hll) merged.merge(hll);
  }
  store(ctx, args[1], merged);
  return OK;
}

export const hyperloglogCommandHandlers: CommandHandlers = { pfadd, pfcount, pfmerge };
