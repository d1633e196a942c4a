// LMPOP and ZMPOP (non-blocking): pop up to COUNT elements from the first non-empty list or sorted
// set among numkeys keys, answering `[key, elements]` as Redis 7.0 does, or a null array when every
// key is empty. The blocking forms (BLMPOP, BZMPOP) are refused by the command table.
import { array, bulk, bulkArray, error, NULL_ARRAY, type ErrorReply, type Reply } from '../../reply';
import { isErrorReply, parseInteger, SYNTAX_ERROR } from '../arguments';
import { formatDouble } from '../format-double';
import type { CommandContext, CommandHandlers } from '../handler';
import { refuseValues } from '../reply-limits';

interface MultiPop {
  readonly keys: readonly string[];
  /** The side argument, lower case, already checked against the command's two sides. */
  readonly side: string;
  readonly count: number;
}

function parseMultiPop(args: readonly string[], sides: readonly [string, string]): MultiPop | ErrorReply {
  const numkeys = parseInteger(args[1]);
  if (isErrorReply(numkeys) || numkeys < 1) return error('ERR numkeys should be greater than 0');
  const sideAt = 2 + numkeys;
  if (sideAt >= args.length) return SYNTAX_ERROR;
  const side = args[sideAt].toLowerCase();
  if (!sides.includes(side)) return SYNTAX_ERROR;
  let count: number | undefined;
  for (let index = sideAt + 1; index < args.length; index++) {
    if (count !== undefined || args[index].toLowerCase() !== 'count' || index + 1 >= args.length) return SYNTAX_ERROR;
    const parsed = parseInteger(args[++index]);
    if (isErrorReply(parsed) || parsed < 1) return error('ERR count should be greater than 0');
    count = parsed;
  }
  return { keys: args.slice(2, sideAt), side, count: count ?? 1 };
}

function lmpop(args: readonly string[], ctx: CommandContext): Reply {
  const parsed = parseMultiPop(args, ['left', 'right']);
  if (isErrorReply(parsed)) return parsed;
  for (const key of parsed.keys) {
    const list = ctx.db.lookupTyped(key, 'list', ctx.now);
    if (isErrorReply(list)) return list;
    if (!list || list.items.length === 0) continue;
    const left = parsed.side === 'left';
    const from = left ? 0 : Math.max(0, list.items.length - parsed.count);
    const refused = refuseValues(list.items.slice(from, from + parsed.count), ctx.replyLimits);
    if (refused) return refused;
    const taken = left ? list.items.splice(0, parsed.count) : list.items.splice(from).reverse();
    ctx.db.deleteIfEmpty(key, list);
    return array([bulk(key), bulkArray(taken)]);
  }
  return NULL_ARRAY;
}

function zmpop(args: readonly string[], ctx: CommandContext): Reply {
  const parsed = parseMultiPop(args, ['min', 'max']);
  if (isErrorReply(parsed)) return parsed;
  for (const key of parsed.keys) {
    const value = ctx.db.lookupTyped(key, 'zset', ctx.now);
    if (isErrorReply(value)) return value;
    if (!value || value.zset.size === 0) continue;
    const all = value.zset.all();
    const taken = parsed.side === 'min' ? all.slice(0, parsed.count) : all.slice(Math.max(0, all.length - parsed.count)).reverse();
    const refused = refuseValues(taken.flatMap((entry) => [entry.member, formatDouble(entry.score)]), ctx.replyLimits);
    if (refused) return refused;
    value.zset.batch(() => taken.forEach((entry) => value.zset.delete(entry.member)));
    ctx.db.deleteIfEmpty(key, value);
    return array([bulk(key), array(taken.map((entry) => array([bulk(entry.member), bulk(formatDouble(entry.score))])))]);
  }
  return NULL_ARRAY;
}

export const multiPopCommandHandlers: CommandHandlers = { lmpop, zmpop };
