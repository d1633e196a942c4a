// The two ways Redis 7.0 writes geo numbers: distances with exactly 4 decimals, rounded half to even
// (fixedpoint_d2string over llrint), and coordinates in its "human" long double form (`%.17Lf` with
// trailing zeros removed), plus `%f` for the invalid-pair error.

function roundHalfEven(value: number): number {
  const floor = Math.floor(value);
  const fraction = value - floor;
  if (fraction > 0.5) return floor + 1;
  if (fraction < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

export function formatDistance(meters: number): string {
  const scaled = roundHalfEven(meters * 10000);
  const negative = scaled < 0;
  const digits = String(Math.abs(scaled)).padStart(5, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -4)}.${digits.slice(-4)}`;
}

export function formatCoordinate(value: number): string {
  let text = value.toFixed(17);
  if (text.includes('.')) text = text.replace(/0+$/, '').replace(/\.$/, '');
  return text === '-0' ? '0' : text;
}

/** C's `%f`. */
export function formatFixed6(value: number): string {
  if (Number.isNaN(value)) return value < 0 ? '-nan' : 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  return value.toFixed(6);
}
