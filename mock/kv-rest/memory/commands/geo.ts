// Geo commands over sorted sets, as Redis 7.0 runs them: GEOADD (through ZADD, with 52-bit geohash
// scores), GEODIST, GEOHASH, GEOPOS, and the searches GEOSEARCH, GEOSEARCHSTORE, GEORADIUS and
// GEORADIUSBYMEMBER (and their _RO forms), which scan the same nine geohash cells as Redis in the
// same order, so unsorted results, COUNT ANY cut-offs and stored sets all agree with Redis's.
import { array, bulk, bulkOrNil, NIL, NULL_ARRAY, type Reply } from '../../reply';
import { isErrorReply, SYNTAX_ERROR } from '../arguments';
import { parsePosition, parseUnit } from '../geo-arguments';
import { formatCoordinate, formatDistance } from '../geo-format';
import { distance, positionOf, scoreOf, standardGeohash } from '../geohash';
import type { CommandContext, CommandHandlers } from '../handler';
import type { ZSetValue } from '../keyspace';
import { geoSearch, parseSearch, type SearchVariant } from './geo-search';
import { sortedSetCommandHandlers } from './sorted-sets';
import { zsetAt } from './sorted-set-values';

function geoadd(args: readonly string[], ctx: CommandContext): Reply {
  let at = 2;
  let nx = false;
  let xx = false;
  for (; at < args.length; at++) {
    const option = args[at].toLowerCase();
    if (option === 'nx') nx = true;
    else if (option === 'xx') xx = true;
    else if (option !== 'ch') break;
  }
  if ((args.length - at) % 3 !== 0 || (nx && xx)) return SYNTAX_ERROR;
  const zaddArgs = ['zadd', ...args.slice(1, at)];
  for (let index = at; index < args.length; index += 3) {
    const position = parsePosition(args[index], args[index + 1]);
    if (isErrorReply(position)) return position;
    zaddArgs.push(String(scoreOf(position[0], position[1])), args[index + 2]);
  }
  return sortedSetCommandHandlers.zadd(zaddArgs, ctx);
}

function geoRead(read: (value: ZSetValue | undefined, args: readonly string[]) => Reply) {
  return (args: readonly string[], ctx: CommandContext): Reply => {
    const value = zsetAt(ctx, args[1]);
    return isErrorReply(value) ? value : read(value, args);
  };
}

const geohash = geoRead((value, args) =>
  array(
    args.slice(2).map((member) => {
      const score = value?.zset.score(member);
      return score === undefined ? NIL : bulk(standardGeohash(score));
    }),
  ),
);

const geopos = geoRead((value, args) =>
  array(
    args.slice(2).map((member) => {
      const score = value?.zset.score(member);
      if (score === undefined) return NULL_ARRAY;
      const [longitude, latitude] = positionOf(score);
      return array([bulk(formatCoordinate(longitude)), bulk(formatCoordinate(latitude))]);
    }),
  ),
);

function geodist(args: readonly string[], ctx: CommandContext): Reply {
  let toMeters = 1;
  if (args.length === 5) {
    const unit = parseUnit(args[4]);
    if (isErrorReply(unit)) return unit;
    toMeters = unit;
  } else if (args.length > 5) return SYNTAX_ERROR;
  const value = zsetAt(ctx, args[1]);
  if (isErrorReply(value)) return value;
  const first = value?.zset.score(args[2]);
  const second = value?.zset.score(args[3]);
  if (first === undefined || second === undefined) return NIL;
  const [lon1, lat1] = positionOf(first);
  const [lon2, lat2] = positionOf(second);
  return bulkOrNil(formatDistance(distance(lon1, lat1, lon2, lat2) / toMeters));
}

function search(variant: SearchVariant) {
  return (args: readonly string[], ctx: CommandContext): Reply => {
    const source = zsetAt(ctx, args[variant === 'geosearchstore' ? 2 : 1]);
    if (isErrorReply(source)) return source;
    const parsed = parseSearch(args, variant, source);
    if (isErrorReply(parsed)) return parsed;
    return geoSearch(parsed, source, ctx);
  };
}

export const geoCommandHandlers: CommandHandlers = {
  geoadd,
  geohash,
  geopos,
  geodist,
  georadius: search('georadius'),
  georadius_ro: search('georadius_ro'),
  georadiusbymember: search('georadiusbymember'),
  georadiusbymember_ro: search('georadiusbymember_ro'),
  geosearch: search('geosearch'),
  geosearchstore: search('geosearchstore'),
};

