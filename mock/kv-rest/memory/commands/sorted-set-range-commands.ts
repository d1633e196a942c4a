// The range commands of sorted sets: ZRANGE with BYSCORE/BYLEX/REV/LIMIT/WITHSCORES, the older
// ZRANGEBYSCORE/ZREVRANGE... forms, ZRANGESTORE, ZCOUNT/ZLEXCOUNT and the ZREMRANGEBY* trio.
import { error, integer, type ErrorReply, type Reply } from '../../reply';
import { isErrorReply, parseInteger, SYNTAX_ERROR } from '../arguments';
import type { CommandContext, CommandHandlers } from '../handler';
import { boundedRanks, parseBounds, parseLexBound, parseScoreBound, type RangeSpec, selectRange } from './sorted-set-ranges';
import { reservedMembersReply, storeZSet, zsetAt } from './sorted-set-values';

type By = 'rank' | 'score' | 'lex';

interface RangeRequest {
  readonly spec: RangeSpec;
  readonly withScores: boolean;
}

/** Builds a range from `min max` (already in ascending order for the by-value forms) and options. */
function rangeSpec(by: By, min: string, max: string, rev: boolean, limit: [number, number] | undefined): RangeSpec | ErrorReply {
  if (by === 'rank') {
    const start = parseInteger(min);
    if (isErrorReply(start)) return start;
    const stop = parseInteger(max);
    if (isErrorReply(stop)) return stop;
    return { by, start, stop, rev };
  }
  const [offset, count] = limit ?? [0, -1];
  if (by === 'score') {
    const bounds = parseBounds(min, max, parseScoreBound);
    return isErrorReply(bounds) ? bounds : { by, min: bounds[0], max: bounds[1], rev, offset, count };
  }
  const bounds = parseBounds(min, max, parseLexBound);
  return isErrorReply(bounds) ? bounds : { by, min: bounds[0], max: bounds[1], rev, offset, count };
}

/** Options after `start stop`: BYSCORE, BYLEX, REV, LIMIT offset count, WITHSCORES (some forms fix a few). */
function parseRangeOptions(args: readonly string[], from: number, fixed: { by?: By; rev?: boolean; allowBy: boolean; allowWithScores: boolean }): { by: By; rev: boolean; limit?: [number, number]; withScores: boolean } | ErrorReply {
  let by: By = fixed.by ?? 'rank';
  let rev = fixed.rev ?? false;
  let limit: [number, number] | undefined;
  let withScores = false;
  for (let index = from; index < args.length; index++) {
    const option = args[index].toLowerCase();
    if (option === 'withscores' && fixed.allowWithScores) withScores = true;
    else if (option === 'byscore' && fixed.allowBy) by = 'score';
    else if (option === 'bylex' && fixed.allowBy) by = 'lex';
    else if (option === 'rev' && fixed.allowBy) rev = true;
    else if (option === 'limit' && index + 2 < args.length) {
      const offset = parseInteger(args[index + 1]);
      if (isErrorReply(offset)) return offset;
      const count = parseInteger(args[index + 2]);
      if (isErrorReply(count)) return count;
      limit = [offset, count];
      index += 2;
    } else return SYNTAX_ERROR;
  }
  if (limit && by === 'rank') return error('ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX');
  if (withScores && by === 'lex') return error('ERR syntax error, WITHSCORES not supported in combination with BYLEX');
  return { by, rev, limit, withScores };
}

/** `key start stop [options]`: for by-value ranges in reverse, Redis takes `max min`. */
function parseRange(args: readonly string[], keyIndex: number, fixed: Parameters<typeof parseRangeOptions>[2]): RangeRequest | ErrorReply {
  const options = parseRangeOptions(args, keyIndex + 3, fixed);
  if (isErrorReply(options)) return options;
  const [first, second] = [args[keyIndex + 1], args[keyIndex + 2]];
  const swap = options.rev && options.by !== 'rank';
  const spec = rangeSpec(options.by, swap ? second : first, swap ? first : second, options.rev, options.limit);
  return isErrorReply(spec) ? spec : { spec, withScores: options.withScores };
}

function rangeReader(fixed: Parameters<typeof parseRangeOptions>[2]) {
  return (args: readonly string[], ctx: CommandContext): Reply => {
    const request = parseRange(args, 1, fixed);
    if (isErrorReply(request)) return request;
    const value = zsetAt(ctx, args[1]);
    if (isErrorReply(value)) return value;
    return reservedMembersReply(value ? selectRange(value.zset, request.spec) : [], request.withScores, ctx);
  };
}

function zrangestore(args: readonly string[], ctx: CommandContext): Reply {
  const request = parseRange(args, 2, { allowBy: true, allowWithScores: false });
  if (isErrorReply(request)) return request;
  const value = zsetAt(ctx, args[2]);
  if (isErrorReply(value)) return value;
  return integer(storeZSet(ctx, args[1], value ? selectRange(value.zset, request.spec) : []));
}

function counter(by: 'score' | 'lex') {
  return (args: readonly string[], ctx: CommandContext): Reply => {
    const spec = rangeSpec(by, args[2], args[3], false, undefined);
    if (isErrorReply(spec)) return spec;
    const value = zsetAt(ctx, args[1]);
    if (isErrorReply(value)) return value;
    if (!value || spec.by === 'rank') return integer(0);
    const [first, end] = boundedRanks(value.zset, spec);
    return integer(end - first);
  };
}

function remover(by: By) {
  return (args: readonly string[], ctx: CommandContext): Reply => {
    const spec = rangeSpec(by, args[2], args[3], false, undefined);
    if (isErrorReply(spec)) return spec;
    const value = zsetAt(ctx, args[1]);
    if (isErrorReply(value)) return value;
    if (!value) return integer(0);
    const doomed = selectRange(value.zset, spec);
    value.zset.batch(() => doomed.forEach((entry) => value.zset.delete(entry.member)));
    ctx.db.deleteIfEmpty(args[1], value);
    return integer(doomed.length);
  };
}

export const sortedSetRangeHandlers: CommandHandlers = {
  zrange: rangeReader({ allowBy: true, allowWithScores: true }),
  zrevrange: rangeReader({ rev: true, allowBy: false, allowWithScores: true }),
  zrangebyscore: rangeReader({ by: 'score', allowBy: false, allowWithScores: true }),
  zrevrangebyscore: rangeReader({ by: 'score', rev: true, allowBy: false, allowWithScores: true }),
  zrangebylex: rangeReader({ by: 'lex', allowBy: false, allowWithScores: false }),
  zrevrangebylex: rangeReader({ by: 'lex', rev: true, allowBy: false, allowWithScores: false }),
  zrangestore,
  zcount: counter('score'),
  zlexcount: counter('lex'),
  zremrangebyrank: remover('rank'),
  zremrangebyscore: remover('score'),
  zremrangebylex: remover('lex'),
};
