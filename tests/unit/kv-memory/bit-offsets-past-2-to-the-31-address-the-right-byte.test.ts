// Finding 14: SETBIT and GETBIT at offsets >= 2^31 silently did nothing on the memory engine (a
// signed 32-bit shift made the byte index negative). Offsets up to Redis's 2^32 - 1 now address the
// right byte in every bitmap command, as far as a V8 string can grow.
import fc from 'fast-check';
import { countBits, findBit } from '../../../mock/kv-rest/memory/bit-scan';
import { MAX_STRING_BYTES } from '../../../mock/kv-rest/memory/string-size';
import { useEngine } from './memory-engine-harness';

const OFFSET = 2 ** 31 + 9;

describe('bit offsets at and past 2^31 address the right byte', () => {
  const current = useEngine();

  it('sets, reads, counts and finds a bit at 2^31 + 9 as Redis does', async () => {
    const { run } = current();
    expect(await run('SETBIT', 'bits', OFFSET, '1')).toBe(0);
    expect(await run('SETBIT', 'bits', OFFSET, '1')).toBe(1);
    expect([await run('GETBIT', 'bits', OFFSET), await run('GETBIT', 'bits', OFFSET - 1), await run('GETBIT', 'bits', 2 ** 32 - 1)]).toEqual([1, 0, 0]);
    expect(await run('STRLEN', 'bits')).toBe(2 ** 28 + 2);
    expect([await run('BITCOUNT', 'bits'), await run('BITCOUNT', 'bits', OFFSET, OFFSET, 'BIT'), await run('BITCOUNT', 'bits', '-2', '-1')]).toEqual([1, 1, 1]);
    expect([await run('BITPOS', 'bits', '1'), await run('BITPOS', 'bits', '1', 2 ** 28, '-1'), await run('BITPOS', 'bits', '0', OFFSET, '-1', 'BIT')]).toEqual([OFFSET, OFFSET, OFFSET + 1]);
    expect(await run('SETBIT', 'bits', OFFSET, '0')).toBe(1);
    expect(await run('BITCOUNT', 'bits')).toBe(0);
  });

  it('refuses offsets past 2^32 - 1 with Redis\'s error, and a byte past the largest string with the size error', async () => {
    const { run } = current();
    expect(await run('SETBIT', 'bits', 2 ** 32, '1')).toEqual({ error: 'ERR bit offset is not an integer or out of range' });
    expect(await run('SETBIT', 'bits', MAX_STRING_BYTES * 8, '1')).toEqual({ error: 'ERR string exceeds maximum allowed size (proto-max-bulk-len)' });
    expect(await run('EXISTS', 'bits')).toBe(0);
  });
});

describe('bit scanning by bytes and chunks', () => {
  const bit = (bytes: string, position: number): number => (bytes.charCodeAt(Math.floor(position / 8)) >> (7 - (position % 8))) & 1;
  const bitRanges = fc
    .tuple(fc.string({ unit: fc.constantFrom('\x00', '\xff', '\x01', '\x80', 'A'), minLength: 1, maxLength: 40 }), fc.nat(), fc.nat())
    .map(([bytes, a, b]) => {
      const bits = bytes.length * 8;
      const [first, last] = [a % bits, b % bits].sort((x, y) => x - y);
      return { bytes, first, last };
    });

  it('counts and finds the same bits as a bit-by-bit walk', () => {
    fc.assert(
      fc.property(bitRanges, ({ bytes, first, last }) => {
        const positions = Array.from({ length: last - first + 1 }, (_, index) => first + index);
        expect({
          count: countBits(bytes, first, last),
          one: findBit(bytes, 1, first, last),
          zero: findBit(bytes, 0, first, last),
        }).toEqual({
          count: positions.filter((position) => bit(bytes, position) === 1).length,
          one: positions.find((position) => bit(bytes, position) === 1) ?? -1,
          zero: positions.find((position) => bit(bytes, position) === 0) ?? -1,
        });
      }),
      { numRuns: 3000 },
    );
  });

  it('skips whole chunks of filler and still finds the bit after them', () => {
    const bytes = '\x00'.repeat(200_000) + '\x10' + '\xff'.repeat(200_000);
    expect([countBits(bytes, 0, bytes.length * 8 - 1), findBit(bytes, 1, 0, bytes.length * 8 - 1), findBit(bytes, 0, 200_001 * 8, bytes.length * 8 - 1)]).toEqual([1 + 200_000 * 8, 200_000 * 8 + 3, -1]);
  });
});
