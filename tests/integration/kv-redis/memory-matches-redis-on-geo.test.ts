// Property-based differential test of the geo family: random GEOADD/GEOSEARCH/GEORADIUS ...
// sequences get the same typed replies from the memory engine and from redis-server 7.0: positions,
// distances and hashes to the last digit, unsorted result order, COUNT and ANY cut-offs, stored sets
// and errors. Each member has positions of its own, so no two members ever share a distance (Redis
// orders equal distances by its own partial quicksort).
import fc from 'fast-check';
import { commandOf, describeAgainstRedis, optional } from './differential-engine-pair';

const key = fc.constantFrom('geo', 'geo', 'geo2', 'str');
const member = fc.constantFrom('palermo', 'catania', 'edge', 'paris', 'nowhere');
const PLACES: Readonly<Record<string, readonly (readonly [string, string])[]>> = {
  palermo: [['13.361389', '38.115556'], ['13.5', '38.2']],
  catania: [['15.087269', '37.502669'], ['15.2', '37.4']],
  edge: [['180', '85.05112878'], ['-180', '-85.05112878'], ['0', '0'], ['179.9999', '-0.0001']],
  paris: [['2.3522', '48.8566'], ['-122.27652', '37.80574']],
  nowhere: [['181', '0'], ['x', '1'], ['0', '86']],
};
const placed = member.chain((name) => fc.constantFrom(...PLACES[name]).map(([longitude, latitude]) => [longitude, latitude, name]));
const center = fc.constantFrom(['15', '37'], ['13.361389', '38.115556'], ['0', '0'], ['-179.9', '85'], ['200', '0']);
const radius = fc.constantFrom('0', '100', '200', '1000', '5000', '-1', 'x');
const unit = fc.constantFrom('m', 'km', 'mi', 'ft', 'KM', 'parsec');
const count = fc.constantFrom('1', '2', '0', 'x');
const c = commandOf;
const k = fc.constant;
const options = fc.subarray(['WITHDIST', 'WITHCOORD', 'WITHHASH']);
const order = optional(fc.constantFrom('ASC', 'DESC'));
const limit = optional(k('COUNT'), count, optional(k('ANY')));
const from = fc.oneof(c(k('FROMMEMBER'), member), c(k('FROMLONLAT'), center));
const by = fc.oneof(c(k('BYRADIUS'), radius, unit), c(k('BYBOX'), radius, radius, unit));

const command: fc.Arbitrary<string[]> = fc.oneof(
  { weight: 6, arbitrary: c(k('GEOADD'), key, optional(fc.constantFrom('NX', 'XX', 'CH')), placed, optional(placed)) },
  c(k('ZADD'), key, fc.constantFrom('0', '-1', '4503599627370496', '9007199254740993', 'inf'), member),
  c(k('GEODIST'), key, member, member, optional(unit)),
  c(k('GEOHASH'), key, member, member),
  c(k('GEOPOS'), key, member, member),
  { weight: 4, arbitrary: c(k('GEOSEARCH'), key, from, by, order, limit, options) },
  c(k('GEOSEARCH'), key, optional(from), optional(by), optional(k('STORE'), key)),
  { weight: 2, arbitrary: c(k('GEOSEARCHSTORE'), k('dst'), key, from, by, order, limit, optional(k('STOREDIST'))) },
  { weight: 2, arbitrary: c(fc.constantFrom('GEORADIUS', 'GEORADIUS_RO'), key, center, radius, unit, order, limit, options) },
  { weight: 2, arbitrary: c(fc.constantFrom('GEORADIUSBYMEMBER', 'GEORADIUSBYMEMBER_RO'), key, member, radius, unit, order, limit, options) },
  c(k('GEORADIUS'), key, center, radius, unit, limit, fc.constantFrom('STORE', 'STOREDIST'), k('dst'), optional(k('WITHDIST'))),
  c(k('GEORADIUSBYMEMBER'), key, member, radius, unit, fc.constantFrom('STORE', 'STOREDIST'), k('dst')),
  c(k('ZRANGE'), k('dst'), k('0'), k('-1'), k('WITHSCORES')),
  c(k('SET'), k('str'), k('x')),
);


describeAgainstRedis('memory engine matches redis-server on geo commands', 10, {
  'gives the same typed reply to every geo command of a random sequence': [command, { maxLength: 25, runs: 200 }],
});
