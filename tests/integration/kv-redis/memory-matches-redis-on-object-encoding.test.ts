// Property-based differential test of OBJECT ENCODING/REFCOUNT/FREQ/HELP and MEMORY USAGE against
// redis-server 7.0: values built small and large (short, long and integer strings, strings changed
// in place, lists, integer and other sets, hashes and sorted sets past their listpack limits,
// streams, HyperLogLogs) get the encoding Redis 7.0 picks with its default thresholds, and strings
// stored by SET the exact MEMORY USAGE. Collections only grow here: Redis never converts one back to
// its compact encoding, which the memory engine does not track (see the README).
import fc from 'fast-check';
import { commandOf, describeAgainstRedis, optional } from './differential-engine-pair';

const c = commandOf;
const k = fc.constant;

const many = (count: number, prefix: string): string[] => Array.from({ length: count }, (_, index) => `${prefix}${index}`);
const stringValue = fc.constantFrom('1', '-5', '9999', '10000', '12345678901234567890', '9223372036854775807', '-0', '007', 'hello', 'x'.repeat(44), 'x'.repeat(45), 'y'.repeat(300), '');
const collectionKey = fc.constantFrom('list', 'set', 'hash', 'zset', 'stream', 'hll', 'changed', 'stored', 'missing');

const command: fc.Arbitrary<string[]> = fc.oneof(
  { weight: 2, arbitrary: c(k('SET'), fc.constantFrom('changed', 'stored'), stringValue) },
  c(k('APPEND'), k('changed'), stringValue),
  c(k('SETRANGE'), k('changed'), fc.constantFrom('0', '3'), k('ab')),
  c(k('SETBIT'), k('changed'), k('3'), k('1')),
  c(k('INCR'), k('changed')),
  c(k('RPUSH'), k('list'), fc.constantFrom('a', '1', 'z'.repeat(70))),
  c(k('SADD'), k('set'), fc.constantFrom(['1'], ['-20', '300000'], ['a'], many(520, ''), ['4294967296'])),
  c(k('HSET'), k('hash'), fc.constantFrom(['f', 'v'], ['f', 'v'.repeat(65)], ['g'.repeat(65), 'v'], many(520, 'f').flatMap((field) => [field, '1']))),
  c(k('ZADD'), k('zset'), fc.constantFrom(['1', 'a'], ['2', 'm'.repeat(65)], many(130, 'm').flatMap((member, index) => [String(index), member]))),
  c(k('XADD'), k('stream'), k('5-*'), k('f'), k('v')),
  c(k('PFADD'), k('hll'), fc.constantFrom('a', 'b')),
  { weight: 4, arbitrary: c(k('OBJECT'), fc.constantFrom('ENCODING', 'REFCOUNT', 'encoding'), collectionKey) },
  c(k('OBJECT'), fc.constantFrom('FREQ', 'HELP'), optional(collectionKey)),
  { weight: 2, arbitrary: c(k('MEMORY'), k('USAGE'), fc.constantFrom('stored', 'missing'), optional(k('SAMPLES'), fc.constantFrom('0', '5', '-1', 'x'))) },
  c(k('MEMORY'), k('USAGE'), k('stored'), fc.constantFrom('BOGUS', 'SAMPLES')),
  c(k('MEMORY'), k('HELP')),
);

describeAgainstRedis('memory engine matches redis-server on OBJECT and MEMORY USAGE', 13, {
  'gives the same typed reply to every command of a random sequence': [command, { maxLength: 20, runs: 200 }],
});
