// Property-based differential test of COPY on every type against redis-server 7.0: strings, lists,
// sets, hashes, sorted sets, geo sets, HyperLogLogs and streams with their consumer groups are built,
// copied (with and without REPLACE, onto existing keys of other types too), then the copy and the
// original are changed and read apart, so a copy that shares state with its source shows. Sets are
// read through SORT ALPHA (Redis's hash order is its own), stream times are left out, and a
// HyperLogLog's bytes are compared by their magic only.
import fc from 'fast-check';
import type { Reply } from '../../../mock/kv-rest/reply';
import { commandOf, comparableReply, describeAgainstRedis, optional } from './differential-engine-pair';

const c = commandOf;
const k = fc.constant;
const source = fc.constantFrom('str', 'list', 'set', 'hash', 'zset', 'geo', 'hll', 'stream', 'none');
const target = fc.constantFrom('copy1', 'copy2', 'str', 'stream');
const any = fc.oneof(source, target);
const word = fc.constantFrom('a', 'b', 'c', '10');
const id = fc.constantFrom('1-1', '2-0', '3-0', '4-5');

/** Builds one value of every type, so every sequence copies something of each. */
const SETUP: readonly (readonly string[])[] = [
  ['SET', 'str', 'text'],
  ['RPUSH', 'list', 'a', 'b', 'c'],
  ['SADD', 'set', 'a', 'b', '10'],
  ['HSET', 'hash', 'f1', 'v1', 'f2', 'v2'],
  ['ZADD', 'zset', '1', 'a', '2.5', 'b'],
  ['GEOADD', 'geo', '13.361389', '38.115556', 'Palermo', '15.087269', '37.502669', 'Catania'],
  ['PFADD', 'hll', 'a', 'b', 'c', 'd'],
  ['XADD', 'stream', '1-1', 'f', 'v'],
  ['XADD', 'stream', '2-0', 'f', 'w'],
  ['XGROUP', 'CREATE', 'stream', 'g1', '0'],
  ['XREADGROUP', 'GROUP', 'g1', 'alice', 'COUNT', '1', 'STREAMS', 'stream', '>'],
];

const command: fc.Arbitrary<string[]> = fc.oneof(
  { weight: 6, arbitrary: c(k('COPY'), any, target, optional(k('REPLACE'))) },
  c(k('COPY'), any, any, fc.constantFrom(['BOGUS'], ['DB', '1'], ['REPLACE', 'REPLACE'])),
  c(fc.constantFrom('TYPE', 'EXISTS', 'GET'), any),
  c(k('GETRANGE'), any, k('0'), k('3')),
  c(k('SET'), any, word),
  c(k('LRANGE'), any, k('0'), k('-1')),
  c(fc.constantFrom('RPUSH', 'LPOP'), any, word),
  c(k('SORT'), any, k('ALPHA')),
  c(fc.constantFrom('SADD', 'SREM', 'SISMEMBER'), any, word),
  c(k('HGETALL'), any),
  c(fc.constantFrom('HSET', 'HINCRBY'), any, fc.constantFrom('f1', 'f3'), fc.constantFrom('1', 'x')),
  c(k('ZRANGE'), any, k('0'), k('-1'), k('WITHSCORES')),
  c(k('ZINCRBY'), any, k('1'), word),
  c(k('GEOPOS'), any, k('Palermo'), k('Catania')),
  c(k('GEODIST'), any, k('Palermo'), k('Catania'), k('km')),
  c(k('GEOSEARCH'), any, k('FROMLONLAT'), k('15'), k('37'), k('BYRADIUS'), k('200'), k('km'), k('ASC'), k('WITHDIST')),
  c(k('PFCOUNT'), any),
  c(k('PFADD'), any, word, fc.constantFrom('e', 'f', 'g')),
  c(k('XRANGE'), any, k('-'), k('+')),
  c(k('XADD'), any, id, k('f'), word),
  c(k('XREADGROUP'), k('GROUP'), k('g1'), fc.constantFrom('alice', 'bob'), k('STREAMS'), any, fc.constantFrom('>', '0')),
  c(k('XACK'), any, k('g1'), id),
  c(k('XPENDING'), any, k('g1')),
  c(k('XINFO'), k('GROUPS'), any),
  c(k('XINFO'), k('STREAM'), any),
  c(k('XGROUP'), k('CREATE'), any, k('g2'), k('$')),
  c(k('DEL'), any),
);

/** A HyperLogLog's bytes: always Redis's dense layout here (an intended difference, see the README). */
const HLL_BYTES = /^HYLL/;

/**
 * Consumer idle times differ between the two sides by however long a run takes, and a
 * HyperLogLog read with GET is compared by its magic only.
 */
function normalised(args: readonly string[], reply: Reply): unknown {
  if (reply.kind === 'bulk' && HLL_BYTES.test(reply.value)) return 'a HyperLogLog';
  const plain = comparableReply(reply);
  const scrub = (value: unknown): unknown => {
    if (!Array.isArray(value)) return value;
    const copy = value.map(scrub);
    for (let index = 0; index + 1 < copy.length; index++) {
      const label = copy[index] as { kind?: string; value?: string };
      if (label?.kind === 'bulk' && (label.value === 'idle' || label.value === 'radix-tree-nodes')) copy[index + 1] = 'ignored';
    }
    return copy;
  };
  return scrub(plain);
}

describeAgainstRedis('memory engine matches redis-server on COPY of every type', 12, {
  'gives the same typed reply to every command of a random sequence that copies and changes values': [command, { setup: SETUP, maxLength: 25, runs: 200, normalise: normalised }],
});
