// Geo arguments with Redis 7.0's checks and error texts: a longitude, latitude pair within the
// range geohashes cover, and a distance unit.
import { error, type ErrorReply } from '../reply';
import { isErrorReply, parseFloatArg } from './arguments';
import { formatFixed6 } from './geo-format';
import { LAT_MAX, LAT_MIN, LONG_MAX, LONG_MIN } from './geohash';

/** A longitude, latitude pair in range, or the error Redis words for it. */
export function parsePosition(longitudeText: string, latitudeText: string): [number, number] | ErrorReply {
  const longitude = parseFloatArg(longitudeText);
  if (isErrorReply(longitude)) return longitude;
  const latitude = parseFloatArg(latitudeText);
  if (isErrorReply(latitude)) return latitude;
  if (longitude < LONG_MIN || longitude > LONG_MAX || latitude < LAT_MIN || latitude > LAT_MAX) {
    return error(`ERR invalid longitude,latitude pair ${formatFixed6(longitude)},${formatFixed6(latitude)}`);
  }
  return [longitude, latitude];
}

const UNIT_METERS: Readonly<Record<string, number>> = { m: 1, km: 1000, ft: 0.3048, mi: 1609.34 };
const BAD_UNIT = error('ERR unsupported unit provided. please use M, KM, FT, MI');

export function parseUnit(text: string): number | ErrorReply {
  return UNIT_METERS[text.toLowerCase()] ?? BAD_UNIT;
}
