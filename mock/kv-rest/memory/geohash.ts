// Redis's geohash, step for step (geohash.c, geohash_helper.c in Redis 7.0): positions are 52-bit
// interleaved hashes kept as sorted-set scores, decoded to the centre of their cell, so positions,
// distances and hashes come out as Redis's do. Bit work uses bigint: cells at the range's edge set
// bits past 2^53, which Redis then rounds through a double exactly as Number() does here.

export const GEO_STEP_MAX = 26;
export const LAT_MIN = -85.05112878;
export const LAT_MAX = 85.05112878;
export const LONG_MIN = -180;
export const LONG_MAX = 180;
const EARTH_RADIUS_IN_METERS = 6372797.560856;
const MERCATOR_MAX = 20037726.37;
const D_R = Math.PI / 180.0;

export interface HashBits {
  readonly bits: bigint;
  readonly step: number;
}

interface Range {
  readonly min: number;
  readonly max: number;
}

export interface Area {
  readonly longitude: Range;
  readonly latitude: Range;
}

const WGS84 = { longitude: { min: LONG_MIN, max: LONG_MAX }, latitude: { min: LAT_MIN, max: LAT_MAX } };
/** The standard geohash ranges GEOHASH re-encodes with (latitude -90..90). */
export const STANDARD_RANGES = { longitude: { min: -180, max: 180 }, latitude: { min: -90, max: 90 } };

/** Spreads the low 32 bits of `value` onto the even bit positions. */
function spread(value: bigint): bigint {
  let result = 0n;
  for (let bit = 0n; bit < 32n; bit++) if ((value >> bit) & 1n) result |= 1n << (2n * bit);
  return result;
}

function gather(value: bigint): bigint {
  let result = 0n;
  for (let bit = 0n; bit < 32n; bit++) if ((value >> (2n * bit)) & 1n) result |= 1n << bit;
  return result;
}

/** C's conversion of a non-negative double to uint32 (truncation), for offsets within range. */
const toUint32 = (value: number): bigint => BigInt(Math.trunc(value)) & 0xffffffffn;

export function encode(longitude: number, latitude: number, step: number, ranges: Area = WGS84): HashBits | undefined {
  if (longitude > LONG_MAX || longitude < LONG_MIN || latitude > LAT_MAX || latitude < LAT_MIN) return undefined;
  if (latitude < ranges.latitude.min || latitude > ranges.latitude.max || longitude < ranges.longitude.min || longitude > ranges.longitude.max) {
    return undefined;
  }
  const scale = 2 ** step;
  const latOffset = ((latitude - ranges.latitude.min) / (ranges.latitude.max - ranges.latitude.min)) * scale;
  const longOffset = ((longitude - ranges.longitude.min) / (ranges.longitude.max - ranges.longitude.min)) * scale;
  return { bits: spread(toUint32(latOffset)) | (spread(toUint32(longOffset)) << 1n), step };
}

export function decode(hash: HashBits, ranges: Area = WGS84): Area {
  const latCell = Number(gather(hash.bits));
  const longCell = Number(gather(hash.bits >> 1n));
  const cells = 2 ** hash.step;
  const latScale = ranges.latitude.max - ranges.latitude.min;
  const longScale = ranges.longitude.max - ranges.longitude.min;
  return {
    latitude: { min: ranges.latitude.min + (latCell * 1.0 / cells) * latScale, max: ranges.latitude.min + ((latCell + 1) * 1.0 / cells) * latScale },
    longitude: { min: ranges.longitude.min + (longCell * 1.0 / cells) * longScale, max: ranges.longitude.min + ((longCell + 1) * 1.0 / cells) * longScale },
  };
}

/** The 52-bit score of a position (GEOADD). */
export function scoreOf(longitude: number, latitude: number): number {
  const hash = encode(longitude, latitude, GEO_STEP_MAX) as HashBits;
  return Number(align52(hash));
}

/**
 * C's (uint64_t) of a score as GCC compiles it on x86-64: scores that are not geohashes (ZADD'ed)
 * decode somewhere too. From 2^63 up the conversion subtracts 2^63 first, so inf and values past
 * 2^64 come out 0; NaN and values at or below -2^63 come out 2^63.
 */
function scoreBits(score: number): bigint {
  if (score >= 2 ** 64) return 0n;
  if (Number.isNaN(score) || score <= -(2 ** 63)) return 1n << 63n;
  return BigInt.asUintN(64, BigInt(Math.trunc(score)));
}

const align52 = (hash: HashBits): bigint => hash.bits << BigInt(52 - hash.step * 2);

/** The centre of a score's cell, as [longitude, latitude], clamped to the valid ranges. */
export function positionOf(score: number): [number, number] {
  const area = decode({ bits: scoreBits(score), step: GEO_STEP_MAX });
  const longitude = Math.min(Math.max((area.longitude.min + area.longitude.max) / 2, LONG_MIN), LONG_MAX);
  const latitude = Math.min(Math.max((area.latitude.min + area.latitude.max) / 2, LAT_MIN), LAT_MAX);
  return [longitude, latitude];
}

const degToRad = (angle: number): number => angle * D_R;
const radToDeg = (angle: number): number => angle / D_R;

export function latitudeDistance(lat1: number, lat2: number): number {
  return EARTH_RADIUS_IN_METERS * Math.abs(degToRad(lat2) - degToRad(lat1));
}

/** Haversine distance in meters, as Redis computes it. */
export function distance(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const lon1r = degToRad(lon1);
  const lon2r = degToRad(lon2);
  const v = Math.sin((lon2r - lon1r) / 2);
  if (v === 0.0) return latitudeDistance(lat1, lat2);
  const lat1r = degToRad(lat1);
  const lat2r = degToRad(lat2);
  const u = Math.sin((lat2r - lat1r) / 2);
  const a = u * u + Math.cos(lat1r) * Math.cos(lat2r) * v * v;
  return 2.0 * EARTH_RADIUS_IN_METERS * Math.asin(Math.sqrt(a));
}

/** A search shape with its centre, sizes in the caller's unit, and the unit's meters. */
export type Shape =
  | { readonly kind: 'radius'; readonly center: [number, number]; readonly radius: number; readonly toMeters: number }
  | { readonly kind: 'box'; readonly center: [number, number]; readonly width: number; readonly height: number; readonly toMeters: number };

/** The distance in meters from the centre when the point lies within the shape, else undefined. */
export function distanceWithin(shape: Shape, longitude: number, latitude: number): number | undefined {
  const [x, y] = shape.center;
  if (shape.kind === 'radius') {
    const found = distance(x, y, longitude, latitude);
    return found > shape.radius * shape.toMeters ? undefined : found;
  }
  if (latitudeDistance(latitude, y) > (shape.height * shape.toMeters) / 2) return undefined;
  if (distance(longitude, y, x, y) > (shape.width * shape.toMeters) / 2) return undefined;
  return distance(x, y, longitude, latitude);
}

function estimateSteps(rangeMeters: number, latitude: number): number {
  if (rangeMeters === 0) return 26;
  let step = 1;
  while (rangeMeters < MERCATOR_MAX) {
    rangeMeters *= 2;
    step++;
  }
  step -= 2;
  if (latitude > 66 || latitude < -66) {
    step--;
    if (latitude > 80 || latitude < -80) step--;
  }
  return Math.min(Math.max(step, 1), 26);
}

function boundingBox(shape: Shape): { minLon: number; minLat: number; maxLon: number; maxLat: number } {
  const [longitude, latitude] = shape.center;
  const height = shape.toMeters * (shape.kind === 'radius' ? shape.radius : shape.height / 2);
  const width = shape.toMeters * (shape.kind === 'radius' ? shape.radius : shape.width / 2);
  const latDelta = radToDeg(height / EARTH_RADIUS_IN_METERS);
  const longDeltaTop = radToDeg(width / EARTH_RADIUS_IN_METERS / Math.cos(degToRad(latitude + latDelta)));
  const longDeltaBottom = radToDeg(width / EARTH_RADIUS_IN_METERS / Math.cos(degToRad(latitude - latDelta)));
  const southern = latitude < 0;
  return {
    minLon: southern ? longitude - longDeltaBottom : longitude - longDeltaTop,
    maxLon: southern ? longitude + longDeltaBottom : longitude + longDeltaTop,
    minLat: latitude - latDelta,
    maxLat: latitude + latDelta,
  };
}

const EVEN = 0x5555555555555555n;
const ODD = 0xaaaaaaaaaaaaaaaan;

function move(hash: HashBits, direction: number, axis: 'x' | 'y'): HashBits {
  if (direction === 0) return hash;
  const moving = axis === 'x' ? hash.bits & ODD : hash.bits & EVEN;
  const keep = axis === 'x' ? hash.bits & EVEN : hash.bits & ODD;
  const shift = BigInt(64 - hash.step * 2);
  const zz = (axis === 'x' ? EVEN : ODD) >> shift;
  const moved = direction > 0 ? moving + (zz + 1n) : (moving | zz) - (zz + 1n);
  const mask = (axis === 'x' ? ODD : EVEN) >> shift;
  return { bits: (BigInt.asUintN(64, moved) & mask) | keep, step: hash.step };
}

const neighbour = (hash: HashBits, x: number, y: number): HashBits => move(move(hash, x, 'x'), y, 'y');

/**
 * The cells to scan for a search, in Redis's order (centre, N, S, E, W, NE, NW, SE, SW), with the
 * cells Redis leaves out (undefined) left out, each as its [min, max) score range.
 */
export function searchRanges(shape: Shape): [number, number][] {
  const box = boundingBox(shape);
  const [longitude, latitude] = shape.center;
  const radiusMeters = shape.kind === 'radius' ? shape.radius : Math.sqrt((shape.width / 2) * (shape.width / 2) + (shape.height / 2) * (shape.height / 2));
  let steps = estimateSteps(radiusMeters * shape.toMeters, latitude);
  let hash = encode(longitude, latitude, steps) as HashBits;
  const tooCoarse = (): boolean =>
    decode(neighbour(hash, 0, 1)).latitude.max < box.maxLat ||
    decode(neighbour(hash, 0, -1)).latitude.min > box.minLat ||
    decode(neighbour(hash, 1, 0)).longitude.max < box.maxLon ||
    decode(neighbour(hash, -1, 0)).longitude.min > box.minLon;
  if (steps > 1 && tooCoarse()) {
    steps--;
    hash = encode(longitude, latitude, steps) as HashBits;
  }
  const area = decode(hash);
  const cells: (HashBits | undefined)[] = [
    hash,
    neighbour(hash, 0, 1),
    neighbour(hash, 0, -1),
    neighbour(hash, 1, 0),
    neighbour(hash, -1, 0),
    neighbour(hash, 1, 1),
    neighbour(hash, -1, 1),
    neighbour(hash, 1, -1),
    neighbour(hash, -1, -1),
  ];
  if (steps >= 2) {
    const drop = (...positions: number[]) => positions.forEach((position) => (cells[position] = undefined));
    if (area.latitude.min < box.minLat) drop(2, 8, 7);
    if (area.latitude.max > box.maxLat) drop(1, 5, 6);
    if (area.longitude.min < box.minLon) drop(4, 8, 6);
    if (area.longitude.max > box.maxLon) drop(3, 7, 5);
  }
  const ranges: [number, number][] = [];
  let lastIndex = 0;
  cells.forEach((cell, index) => {
    if (!cell) return;
    // Huge radii make neighbours coincide: Redis skips a cell equal to the last one it scanned,
    // unless that was the centre (its check reads the index 0 as "none yet").
    const last = cells[lastIndex];
    if (lastIndex > 0 && last && last.bits === cell.bits && last.step === cell.step) return;
    ranges.push([Number(align52(cell)), Number(align52({ bits: cell.bits + 1n, step: cell.step }))]);
    lastIndex = index;
  });
  return ranges;
}

const ALPHABET = '0123456789bcdefghjkmnpqrstuvwxyz';

/** The standard 11-character geohash GEOHASH answers for a score. */
export function standardGeohash(score: number): string {
  const [longitude, latitude] = positionOf(score);
  const hash = encode(longitude, latitude, 26, STANDARD_RANGES) as HashBits;
  let text = '';
  for (let index = 0; index < 11; index++) {
    const position = index === 10 ? 0 : Number((hash.bits >> BigInt(52 - (index + 1) * 5)) & 0x1fn);
    text += ALPHABET[position];
  }
  return text;
}
