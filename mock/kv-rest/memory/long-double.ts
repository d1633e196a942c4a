// Redis's INCRBYFLOAT arithmetic: x87 80-bit long doubles (64-bit mantissa), printed with "%.17Lf"
// and trailing zeros removed. Emulated exactly with BigInt so `10.5 + 0.1` answers "10.6" as Redis does.

/** `negative * mantissa * 2^exponent`, mantissa below 2^64; zero has mantissa 0. */
export interface LongDouble {
  readonly negative: boolean;
  readonly mantissa: bigint;
  readonly exponent: number;
  readonly infinite?: boolean;
}

const MANTISSA_BITS = 64;
/** Long doubles overflow past about 1.19e4932; strtold then reports a range error. */
const MAX_DECIMAL_EXPONENT = 4932;
const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;
const INFINITY = /^([+-]?)inf(inity)?$/i;

const bitLength = (value: bigint): number => (value === 0n ? 0 : value.toString(2).length);

/** `numerator / denominator` rounded half-to-even. */
function divideRounded(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  const twiceRemainder = (numerator % denominator) * 2n;
  if (twiceRemainder > denominator || (twiceRemainder === denominator && (quotient & 1n) === 1n)) return quotient + 1n;
  return quotient;
}

/** Rounds the exact value `numerator / denominator * 2^exponent` (positive) to 64 mantissa bits. */
function normalise(negative: boolean, numerator: bigint, denominator: bigint, exponent: number): LongDouble {
  if (numerator === 0n) return { negative, mantissa: 0n, exponent: 0 };
  // Scale so the quotient has exactly 64 bits before rounding.
  let shift = MANTISSA_BITS - (bitLength(numerator) - bitLength(denominator)) + 1;
  const scaled = (s: number): bigint => (s >= 0 ? divideRounded(numerator << BigInt(s), denominator) : divideRounded(numerator, denominator << BigInt(-s)));
  let mantissa = scaled(shift);
  while (bitLength(mantissa) > MANTISSA_BITS) mantissa = scaled(--shift);
  while (bitLength(mantissa) < MANTISSA_BITS) mantissa = scaled(++shift);
  return { negative, mantissa, exponent: exponent - shift };
}

/** Parses like Redis's string2ld (strtold, no surrounding spaces, NaN refused); undefined when invalid. */
export function parseLongDouble(text: string): LongDouble | undefined {
  const infinity = INFINITY.exec(text);
  if (infinity) return { negative: infinity[1] === '-', mantissa: 0n, exponent: 0, infinite: true };
  const match = DECIMAL.exec(text);
  if (!match) return undefined;
  const [, sign, whole, fraction = '', exponentText = '0'] = match;
  if (whole === '' && fraction === '') return undefined;
  const digits = BigInt(`${whole}${fraction}` || '0');
  const decimalExponent = Number(exponentText) - fraction.length;
  if (digits !== 0n && String(digits).length + decimalExponent - 1 > MAX_DECIMAL_EXPONENT) return undefined;
  if (digits !== 0n && String(digits).length + decimalExponent < -MAX_DECIMAL_EXPONENT - 20) return undefined;
  const negative = sign === '-';
  if (decimalExponent >= 0) return normalise(negative, digits * 10n ** BigInt(decimalExponent), 1n, 0);
  return normalise(negative, digits, 10n ** BigInt(-decimalExponent), 0);
}

export function addLongDoubles(a: LongDouble, b: LongDouble): LongDouble {
  if (a.infinite || b.infinite) {
    if (a.infinite && b.infinite && a.negative !== b.negative) return { negative: false, mantissa: 0n, exponent: 0, infinite: true };
    return a.infinite ? a : b;
  }
  const exponent = Math.min(a.exponent, b.exponent);
  const signed = (x: LongDouble): bigint => (x.negative ? -1n : 1n) * (x.mantissa << BigInt(x.exponent - exponent));
  const sum = signed(a) + signed(b);
  return normalise(sum < 0n, sum < 0n ? -sum : sum, 1n, exponent);
}

/** True for a sum of opposite infinities, which Redis refuses like NaN. */
export function isNotFinite(value: LongDouble): boolean {
  return value.infinite === true;
}

/** Redis's ld2string in human mode: "%.17Lf", trailing zeros and a trailing dot removed, "-0" as "0". */
export function formatLongDouble(value: LongDouble): string {
  const scale = 10n ** 17n;
  const scaled =
    value.exponent >= 0
      ? (value.mantissa << BigInt(value.exponent)) * scale
      : divideRounded(value.mantissa * scale, 1n << BigInt(-value.exponent));
  const digits = scaled.toString().padStart(18, '0');
  let text = `${digits.slice(0, -17)}.${digits.slice(-17)}`.replace(/0+$/, '').replace(/\.$/, '');
  if (value.negative && text !== '0') text = `-${text}`;
  return text;
}
