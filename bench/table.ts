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

/**
 * A median over rounds with the range of the rounds' values. With five rounds the median of what a
 * round measures lies within [low, high] with about 94% confidence: each round falls on either side
 * of it with even odds, and all five fall on one side with odds 2 in 32.
 */
export interface Spread {
  readonly median: number;
  readonly low: number;
  readonly high: number;
  readonly rounds: number;
}

/** Rounds a range needs before it says anything about noise. */
const ROUNDS_FOR_A_RANGE = 3;

export function spreadOf<T>(samples: readonly T[], field: (sample: T) => number | undefined): Spread | undefined {
  const values = samples.map(field).filter((value): value is number => value !== undefined && !Number.isNaN(value));
  if (values.length === 0) return undefined;
  return { median: median(values), low: Math.min(...values), high: Math.max(...values), rounds: values.length };
}

/** True when the rounds fall on both sides of `reference`: this run cannot tell the value from it. */
export function withinNoise(spread: Spread | undefined, reference: number): boolean {
  return spread !== undefined && spread.rounds >= ROUNDS_FOR_A_RANGE && spread.low <= reference && reference <= spread.high;
}

/** `1.70 (1.52 to 1.81)`, with `, within noise` when the range includes `reference` (if given); the median alone below three rounds. */
export function spreadCell(spread: Spread | undefined, digits: number, reference?: number, format: (value: number | undefined, digits: number) => string = cell): string {
  if (spread === undefined) return cell(undefined);
  if (spread.rounds < ROUNDS_FOR_A_RANGE) return format(spread.median, digits);
  const range = `${format(spread.median, digits)} (${format(spread.low, digits)} to ${format(spread.high, digits)})`;
  return reference !== undefined && withinNoise(spread, reference) ? `${range}, within noise` : range;
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
