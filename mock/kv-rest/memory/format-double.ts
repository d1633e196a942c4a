// Doubles written the way Redis 7.0 writes them in replies (`%.17g`: 0.1 is 0.10000000000000001,
// 1e20 is 1e+20, infinities are inf and -inf). Sorted-set scores and Lua numbers use it.

/** C's `%.<precision>g`: fixed or exponent form, trailing zeros removed, exponent of two digits or more. */
export function formatG(value: number, precision: number): string {
  const [mantissa, exponentText] = value.toExponential(precision - 1).split('e');
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= precision) {
    const digits = mantissa.includes('.') ? mantissa.replace(/0+$/, '').replace(/\.$/, '') : mantissa;
    return `${digits}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  const fixed = value.toFixed(Math.max(0, precision - 1 - exponent));
  return fixed.includes('.') ? fixed.replace(/0+$/, '').replace(/\.$/, '') : fixed;
}

export function formatDouble(value: number): string {
  if (value === Infinity) return 'inf';
  if (value === -Infinity) return '-inf';
  if (Number.isNaN(value)) return 'nan';
  if (Number.isInteger(value) && Math.abs(value) < 1e17) return Object.is(value, -0) ? '-0' : String(value);
  return formatG(value, 17);
}
