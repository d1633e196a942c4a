// Property-based differential test of BITFIELD and BITFIELD_RO against redis-server 7.0: random
// sequences of GET/SET/INCRBY on signed and unsigned fields of every width (bad ones included), at
// bit and `#` offsets, under OVERFLOW WRAP/SAT/FAIL, mixed with plain string writes and reads, get
// the same typed replies (errors included) from the memory engine and from Redis, and leave the
// same bytes behind.
import fc from 'fast-check';
import { commandOf, describeAgainstRedis, optional } from './differential-engine-pair';

const c = commandOf;
const k = fc.constant;

const key = fc.constantFrom('b1', 'b2', 'list');
const type = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('i1', 'i3', 'i8', 'i16', 'i32', 'i63', 'i64', 'u1', 'u3', 'u8', 'u16', 'u32', 'u63', 'I8', 'U8') },
  fc.constantFrom('u64', 'i65', 'i0', 'u', 'x8', '8', 'i-1', 'i08'),
);
const offset = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('0', '1', '5', '7', '8', '13', '30', '64', '#0', '#1', '#2', '#5') },
  fc.constantFrom('-1', 'x', '#', '#-1', '4294967296', '#536870912', '01'),
);
const value = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('0', '1', '-1', '7', '-8', '100', '-100', '127', '128', '255', '256', '-129', '65535', '4294967296') },
  fc.constantFrom('9223372036854775807', '-9223372036854775808', '9223372036854775808', 'x', '1.5'),
);
const operation = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(k('GET'), type, offset) },
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom('SET', 'set'), type, offset, value) },
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom('INCRBY', 'incrby'), type, offset, value) },
  { weight: 2, arbitrary: fc.tuple(k('OVERFLOW'), fc.constantFrom('WRAP', 'SAT', 'FAIL', 'fail', 'BOGUS')) },
  fc.tuple(fc.constantFrom('GET', 'SET', 'INCRBY', 'OVERFLOW', 'NOPE')),
);
const operations = fc.array(operation, { maxLength: 4 }).map((ops) => ops.flat());

const command: fc.Arbitrary<string[]> = fc.oneof(
  { weight: 6, arbitrary: c(k('BITFIELD'), key, operations) },
  { weight: 2, arbitrary: c(k('BITFIELD_RO'), key, operations) },
  c(k('SET'), k('b2'), fc.constantFrom('', 'a', 'hello', '\u00ff\u0080\u0001')),
  c(k('SETBIT'), k('b1'), fc.constantFrom('0', '9', '31'), fc.constantFrom('0', '1')),
  c(k('RPUSH'), k('list'), k('x')),
  c(k('GET'), fc.constantFrom('b1', 'b2')),
  c(k('STRLEN'), fc.constantFrom('b1', 'b2')),
  c(k('BITFIELD'), key, optional(k('GET'), type, offset)),
);

describeAgainstRedis('memory engine matches redis-server on BITFIELD and BITFIELD_RO', 14, {
  'gives the same typed reply to every command of a random sequence': [command, { maxLength: 25, runs: 300 }],
});
