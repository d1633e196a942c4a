// The geo searches (GEOSEARCH, GEOSEARCHSTORE, GEORADIUS, GEORADIUSBYMEMBER and the _RO forms):
// Redis 7.0's option parsing with its error order, the scan of the nine geohash cells, sorting,
// COUNT (with ANY) and the reply or the stored set.
import { array, bulk, EMPTY_ARRAY, error, integer, type ErrorReply, type Reply } from '../../reply';
import { isErrorReply, parseFloatArg, parseInteger, SYNTAX_ERROR } from '../arguments';
import { parsePosition, parseUnit } from '../geo-arguments';
import { formatCoordinate, formatDistance } from '../geo-format';
import { distanceWithin, positionOf, searchRanges, type Shape } from '../geohash';
import type { CommandContext } from '../handler';
import type { ZSetValue } from '../keyspace';
import { storeZSet } from './sorted-set-values';

export type SearchVariant = 'georadius' | 'georadius_ro' | 'georadiusbymember' | 'georadiusbymember_ro' | 'geosearch' | 'geosearchstore';

export interface Search {
  readonly shape: Shape | undefined;
  readonly storeKey?: string;
  readonly storeDistances: boolean;
  readonly withDistance: boolean;
  readonly withHash: boolean;
  readonly withCoordinates: boolean;
  readonly sort: 'none' | 'asc' | 'desc';
  readonly count: number;
  readonly any: boolean;
}

const NO_MEMBER = error('ERR could not decode requested zset member');

const parseSize = (text: string, message: string): number | ErrorReply => parseFloatArg(text, error(`ERR ${message}`));

function parseRadius(args: readonly string[], at: number): { radius: number; toMeters: number } | ErrorReply {
  const radius = parseSize(args[at], 'need numeric radius');
  if (isErrorReply(radius)) return radius;
  if (radius < 0) return error('ERR radius cannot be negative');
  const toMeters = parseUnit(args[at + 1]);
  return isErrorReply(toMeters) ? toMeters : { radius, toMeters };
}

function memberPosition(source: ZSetValue, member: string): [number, number] | undefined {
  const score = source.zset.score(member);
  return score === undefined ? undefined : positionOf(score);
}

/** Redis's georadiusGeneric argument handling, up to the search itself. */
export function parseSearch(args: readonly string[], variant: SearchVariant, source: ZSetValue | undefined): Search | ErrorReply {
  const isSearch = variant === 'geosearch' || variant === 'geosearchstore';
  const noStore = variant.endsWith('_ro');
  let center: [number, number] | undefined;
  let size: { kind: 'radius'; radius: number } | { kind: 'box'; width: number; height: number } | undefined;
  let toMeters = 1;
  let base: number;
  let storeKey: string | undefined;
  if (variant.startsWith('georadiusbymember')) {
    base = 5;
    if (source) {
      center = memberPosition(source, args[2]);
      if (!center) return NO_MEMBER;
      const radius = parseRadius(args, 3);
      if (isErrorReply(radius)) return radius;
      size = { kind: 'radius', radius: radius.radius };
      toMeters = radius.toMeters;
    }
  } else if (variant.startsWith('georadius')) {
    base = 6;
    const position = parsePosition(args[2], args[3]);
    if (isErrorReply(position)) return position;
    center = position;
    const radius = parseRadius(args, 4);
    if (isErrorReply(radius)) return radius;
    size = { kind: 'radius', radius: radius.radius };
    toMeters = radius.toMeters;
  } else {
    base = variant === 'geosearchstore' ? 3 : 2;
    if (variant === 'geosearchstore') storeKey = args[1];
  }
  let withDistance = false;
  let withHash = false;
  let withCoordinates = false;
  let fromMember = false;
  let fromPosition = false;
  let storeDistances = false;
  let any = false;
  let sort: Search['sort'] = 'none';
  let count = 0;
  const remaining = args.length - base;
  for (let i = 0; i < remaining; i++) {
    const option = args[base + i].toLowerCase();
    const argument = (offset: number): string => args[base + i + offset];
    if (option === 'withdist') withDistance = true;
    else if (option === 'withhash') withHash = true;
    else if (option === 'withcoord') withCoordinates = true;
    else if (option === 'any') any = true;
    else if (option === 'asc') sort = 'asc';
    else if (option === 'desc') sort = 'desc';
    else if (option === 'count' && i + 1 < remaining) {
      const parsed = parseInteger(argument(1));
      if (isErrorReply(parsed)) return parsed;
      if (parsed <= 0) return error('ERR COUNT must be > 0');
      count = parsed;
      i++;
    } else if ((option === 'store' || option === 'storedist') && i + 1 < remaining && !noStore && !isSearch) {
      storeKey = argument(1);
      storeDistances = option === 'storedist';
      i++;
    } else if (option === 'storedist' && variant === 'geosearchstore') {
      storeDistances = true;
    } else if (option === 'frommember' && i + 1 < remaining && isSearch && !fromPosition) {
      if (source) {
        center = memberPosition(source, argument(1));
        if (!center) return NO_MEMBER;
      }
      fromMember = true;
      i++;
    } else if (option === 'fromlonlat' && i + 2 < remaining && isSearch && !fromMember) {
      const position = parsePosition(argument(1), argument(2));
      if (isErrorReply(position)) return position;
      center = position;
      fromPosition = true;
      i += 2;
    } else if (option === 'byradius' && i + 2 < remaining && isSearch && size?.kind !== 'box') {
      const radius = parseRadius(args, base + i + 1);
      if (isErrorReply(radius)) return radius;
      size = { kind: 'radius', radius: radius.radius };
      toMeters = radius.toMeters;
      i += 2;
    } else if (option === 'bybox' && i + 3 < remaining && isSearch && size?.kind !== 'radius') {
      const width = parseSize(argument(1), 'need numeric width');
      if (isErrorReply(width)) return width;
      const height = parseSize(argument(2), 'need numeric height');
      if (isErrorReply(height)) return height;
      if (height < 0 || width < 0) return error('ERR height or width cannot be negative');
      const unit = parseUnit(argument(3));
      if (isErrorReply(unit)) return unit;
      size = { kind: 'box', width, height };
      toMeters = unit;
      i += 3;
    } else return SYNTAX_ERROR;
  }
  if (storeKey !== undefined && (withDistance || withHash || withCoordinates)) {
    const what = variant === 'geosearchstore' ? 'GEOSEARCHSTORE' : 'STORE option in GEORADIUS';
    return error(`ERR ${what} is not compatible with WITHDIST, WITHHASH and WITHCOORD options`);
  }
  if (isSearch && !fromMember && !fromPosition) return error(`ERR exactly one of FROMMEMBER or FROMLONLAT can be specified for ${args[0]}`);
  if (isSearch && !size) return error(`ERR exactly one of BYRADIUS and BYBOX can be specified for ${args[0]}`);
  if (any && !count) return error('ERR the ANY argument requires COUNT argument');
  const shape: Shape | undefined = center && size ? { ...size, center, toMeters } : undefined;
  return { shape, storeKey, storeDistances, withDistance, withHash, withCoordinates, sort, count, any };
}

interface Found {
  readonly member: string;
  readonly score: number;
  readonly position: [number, number];
  /** In meters until the reply divides it by the unit. */
  readonly distance: number;
}

/** Members within the shape, cell by cell in Redis's order, stopping at `limit` (0: none). */
function membersWithin(source: ZSetValue, shape: Shape, limit: number): Found[] {
  const found: Found[] = [];
  for (const [min, max] of searchRanges(shape)) {
    if (limit && found.length >= limit) break;
    const entries = source.zset.all();
    for (let rank = source.zset.firstRankWhere((entry) => entry.score < min); rank < entries.length && entries[rank].score < max; rank++) {
      const { member, score } = entries[rank];
      const position = positionOf(score);
      const meters = distanceWithin(shape, position[0], position[1]);
      if (meters !== undefined) found.push({ member, score, position, distance: meters });
      if (limit && found.length >= limit) break;
    }
  }
  return found;
}

export function geoSearch(search: Search, source: ZSetValue | undefined, ctx: CommandContext): Reply {
  if (!source || !search.shape) {
    if (search.storeKey === undefined) return EMPTY_ARRAY;
    ctx.db.delete(search.storeKey);
    return integer(0);
  }
  const shape = search.shape;
  const found = membersWithin(source, shape, search.any ? search.count : 0);
  if (found.length === 0 && search.storeKey === undefined) return EMPTY_ARRAY;
  const sort = search.count && search.sort === 'none' && !search.any ? 'asc' : search.sort;
  // A stable sort; Redis's partial sort (COUNT below the matches) may order equal distances otherwise.
  if (sort !== 'none') found.sort((a, b) => (sort === 'asc' ? a.distance - b.distance : b.distance - a.distance));
  const returned = search.count ? found.slice(0, search.count) : found;
  if (search.storeKey !== undefined) {
    const stored = returned.map((entry) => ({ member: entry.member, score: search.storeDistances ? entry.distance / shape.toMeters : entry.score }));
    return integer(storeZSet(ctx, search.storeKey, stored));
  }
  const withOptions = search.withDistance || search.withHash || search.withCoordinates;
  return array(
    returned.map((entry) => {
      if (!withOptions) return bulk(entry.member);
      const items: Reply[] = [bulk(entry.member)];
      if (search.withDistance) items.push(bulk(formatDistance(entry.distance / shape.toMeters)));
      if (search.withHash) items.push(integer(Math.trunc(entry.score)));
      if (search.withCoordinates) items.push(array([bulk(formatCoordinate(entry.position[0])), bulk(formatCoordinate(entry.position[1]))]));
      return array(items);
    }),
  );
}
