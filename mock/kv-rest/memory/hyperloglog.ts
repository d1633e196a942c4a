// Redis's HyperLogLog: MurmurHash64A (seed 0xadc83b19), 16384 six-bit registers and the estimator
// of Redis 5+, so PFCOUNT answers the numbers Redis answers. Values are stored in Redis's dense
// layout behind its 16-byte `HYLL` header (Redis starts small sets in a sparse layout instead).

const REGISTERS = 16384;
const INDEX_BITS = 14n;
const Q = 50;
const HEADER_SIZE = 16;
const DENSE_SIZE = HEADER_SIZE + (REGISTERS * 6) / 8;
const ALPHA_INF = 0.721347520444481703680;
const M64 = 0xffffffffffffffffn;
const MURMUR_M = 0xc6a4a7935bd1e995n;

function murmurHash64A(bytes: Buffer, seed: bigint): bigint {
  let h = (seed ^ ((BigInt(bytes.length) * MURMUR_M) & M64)) & M64;
  const blocks = bytes.length - (bytes.length % 8);
  for (let i = 0; i < blocks; i += 8) {
    let k = bytes.readBigUInt64LE(i);
    k = (k * MURMUR_M) & M64;
    k ^= k >> 47n;
    k = (k * MURMUR_M) & M64;
    h ^= k;
    h = (h * MURMUR_M) & M64;
  }
  const tail = bytes.length % 8;
  if (tail > 0) {
    for (let i = tail - 1; i >= 0; i--) h ^= BigInt(bytes[blocks + i]) << BigInt(8 * i);
    h = (h * MURMUR_M) & M64;
  }
  h ^= h >> 47n;
  h = (h * MURMUR_M) & M64;
  h ^= h >> 47n;
  return h;
}

/** The register an element lands in and the run length of zeros it counts (1..51). */
export function hllPosition(element: string): { index: number; count: number } {
  const hash = murmurHash64A(Buffer.from(element, 'latin1'), 0xadc83b19n);
  const index = Number(hash & BigInt(REGISTERS - 1));
  let rest = (hash >> INDEX_BITS) | (1n << BigInt(Q));
  let count = 1;
  while ((rest & 1n) === 0n) {
    count++;
    rest >>= 1n;
  }
  return { index, count };
}

export class HyperLogLog {
  readonly registers: Uint8Array;

  constructor(registers?: Uint8Array) {
    this.registers = registers ?? new Uint8Array(REGISTERS);
  }

  /** Decodes a stored value; undefined when it is not a HyperLogLog this engine wrote. */
  static decode(bytes: string): HyperLogLog | undefined {
    if (bytes.length !== DENSE_SIZE || !bytes.startsWith('HYLL') || bytes.charCodeAt(4) !== 0) return undefined;
    const data = Buffer.from(bytes, 'latin1');
    const registers = new Uint8Array(REGISTERS);
    for (let i = 0; i < REGISTERS; i++) {
      const bit = i * 6;
      const byte = HEADER_SIZE + (bit >> 3);
      const shift = bit & 7;
      registers[i] = ((data[byte] >> shift) | ((data[byte + 1] ?? 0) << (8 - shift))) & 63;
    }
    return new HyperLogLog(registers);
  }

  encode(): string {
    const data = Buffer.alloc(DENSE_SIZE + 1);
    data.write('HYLL', 0, 'latin1');
    for (let i = 0; i < REGISTERS; i++) {
      const bit = i * 6;
      const byte = HEADER_SIZE + (bit >> 3);
      const shift = bit & 7;
      data[byte] |= (this.registers[i] << shift) & 0xff;
      data[byte + 1] |= this.registers[i] >> (8 - shift);
    }
    return data.subarray(0, DENSE_SIZE).toString('latin1');
  }

  /** Answers true when a register grew. */
  add(element: string): boolean {
    const { index, count } = hllPosition(element);
    if (this.registers[index] >= count) return false;
    this.registers[index] = count;
    return true;
  }

  merge(other: HyperLogLog): void {
    for (let i = 0; i < REGISTERS; i++) if (other.registers[i] > this.registers[i]) this.registers[i] = other.registers[i];
  }

  count(): number {
    const histogram = new Array<number>(64).fill(0);
    for (const register of this.registers) histogram[register]++;
    const m = REGISTERS;
    let z = m * tau((m - histogram[Q + 1]) / m);
    for (let j = Q; j >= 1; j--) {
      z += histogram[j];
      z *= 0.5;
    }
    z += m * sigma(histogram[0] / m);
    return Math.round((ALPHA_INF * m * m) / z);
  }
}

function sigma(x: number): number {
  if (x === 1) return Infinity;
  let y = 1;
  let z = x;
  let previous: number;
  do {
    x *= x;
    previous = z;
    z += x * y;
    y += y;
  } while (previous !== z);
  return z;
}

function tau(x: number): number {
  if (x === 0 || x === 1) return 0;
  let y = 1;
  let z = 1 - x;
  let previous: number;
  do {
    x = Math.sqrt(x);
    previous = z;
    y *= 0.5;
    z -= (1 - x) ** 2 * y;
  } while (previous !== z);
  return z / 3;
}
