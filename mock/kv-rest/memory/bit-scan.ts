// Counting and finding bits in a bit range of a byte string, for BITCOUNT and BITPOS. A bitmap may
// hold 2^32 bits (512 MiB), so positions past 2^31 are split into byte and bit with division (no
// 32-bit shifts), and the range is copied once into a Buffer that is walked in chunks: a chunk of
// all zeros (or all ones, when looking for a 0) is recognised by a native comparison and skipped, so
// a sparse bitmap costs a memory comparison rather than a loop step per byte.

const CHUNK_BYTES = 64 * 1024;
const ALL_ZEROS = Buffer.alloc(CHUNK_BYTES);
const ALL_ONES = Buffer.alloc(CHUNK_BYTES, 0xff);

/** Set bits of each byte value. */
const ONES_IN_BYTE = Uint8Array.from({ length: 256 }, (_, byte) => {
  let ones = 0;
  for (let rest = byte; rest > 0; rest >>= 1) ones += rest & 1;
  return ones;
});

export const byteOf = (position: number): number => Math.floor(position / 8);
export const maskOf = (position: number): number => 0x80 >> position % 8;

/** The bit range [first, last] as the bytes holding it, with the first and last bytes' other bits cleared. */
function rangeBytes(bytes: string, first: number, last: number): Buffer {
  const firstByte = byteOf(first);
  const range = Buffer.from(bytes.slice(firstByte, byteOf(last) + 1), 'latin1');
  range[0] &= 0xff >> first % 8;
  range[range.length - 1] &= (0xff << (7 - (last % 8))) & 0xff;
  return range;
}

/** Set bits in the bit range [first, last] of `bytes` (the range lies within the string). */
export function countBits(bytes: string, first: number, last: number): number {
  const range = rangeBytes(bytes, first, last);
  let count = 0;
  for (let start = 0; start < range.length; start += CHUNK_BYTES) {
    const end = Math.min(start + CHUNK_BYTES, range.length);
    if (end - start === CHUNK_BYTES && range.subarray(start, end).equals(ALL_ZEROS)) continue;
    for (let index = start; index < end; index++) count += ONES_IN_BYTE[range[index]];
  }
  return count;
}

/** The first position in the bit range [first, last] of `bytes` holding `wanted`, or -1. */
export function findBit(bytes: string, wanted: 0 | 1, first: number, last: number): number {
  const range = rangeBytes(bytes, first, last);
  // Looking for a 0, the bits outside the range must not count as zeros: set them instead.
  if (wanted === 0) {
    range[0] |= ~(0xff >> first % 8) & 0xff;
    range[range.length - 1] |= ~(0xff << (7 - (last % 8))) & 0xff;
  }
  const filler = wanted === 1 ? ALL_ZEROS : ALL_ONES;
  const skippable = wanted === 1 ? 0x00 : 0xff;
  for (let start = 0; start < range.length; start += CHUNK_BYTES) {
    const end = Math.min(start + CHUNK_BYTES, range.length);
    if (end - start === CHUNK_BYTES && range.subarray(start, end).equals(filler)) continue;
    for (let index = start; index < end; index++) {
      if (range[index] === skippable) continue;
      const matching = wanted === 1 ? range[index] : ~range[index] & 0xff;
      return (byteOf(first) + index) * 8 + Math.clz32(matching) - 24;
    }
  }
  return -1;
}
