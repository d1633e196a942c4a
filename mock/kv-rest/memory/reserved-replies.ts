// Array replies that copy stored strings (LRANGE, HGETALL, SMEMBERS and their kin), reserved before
// they are built (see CommandContext.reserveReply): a whole list or hash copied by each command of a
// 300-command pipeline is refused at the response bound instead of being built 300 times first.
import { bulkArray, type ErrorReply, type Reply } from '../reply';
import type { CommandContext } from './handler';

/** Reserves `count` items holding `strings` (walked once to sum their bytes, nothing copied). */
export function reserveStrings(count: number, strings: Iterable<string>, ctx: CommandContext): ErrorReply | undefined {
  let bytes = 0;
  for (const value of strings) bytes += value.length;
  return ctx.reserveReply(count, bytes);
}

/** `values[from..to)` as an array of bulk strings once reserved, or the error of the bound it would pass. */
export function reservedBulkArray(values: readonly string[], ctx: CommandContext, from = 0, to = values.length): Reply {
  let bytes = 0;
  for (let index = from; index < to; index++) bytes += values[index].length;
  return ctx.reserveReply(to - from, bytes) ?? bulkArray(from === 0 && to === values.length ? values : values.slice(from, to));
}
