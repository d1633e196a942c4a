// Markdown tables and the statistics behind them: medians over rounds, and number formats.

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The median of a field over samples, undefined when no sample has it. */
export function medianOf<T>(samples: readonly T[], field: (sample: T) => number | undefined): number | undefined {
  const values = samples.map(field).filter((value): value is number => value !== undefined);
  return values.length === 0 ? undefined : median(values);
}

/** Each round's sample beside the baseline's sample of the same round, for rounds that have both. */
export function pairedByRound<T>(own: readonly (T | undefined)[], baseline: readonly (T | undefined)[]): { sample: T; base: T }[] {
  return own.flatMap((sample, round) => {
    const base = baseline[round];
    return sample !== undefined && base !== undefined ? [{ sample, base }] : [];
  });
}

/** A number for a table cell, thousands separated; `—` where it does not apply, `n/a` where it could not be measured (NaN). */
export function cell(value: number | undefined, digits = 0): string {
  if (value === undefined) return '—';
  if (Number.isNaN(value)) return 'n/a';
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** A signed difference, `+12` or `-3`. */
export function signedCell(value: number | undefined, digits = 0): string {
  if (value === undefined || Number.isNaN(value)) return cell(value);
  return `${value >= 0 ? '+' : ''}${cell(value, digits)}`;
}

export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  const alignment = header.map((_, index) => (index === 0 ? '---' : '---:'));
  return [line(header), line(alignment), ...rows.map(line)].join('\n');
}
