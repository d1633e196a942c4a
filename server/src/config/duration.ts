// The one parser for `window` values: `<number><unit>` with unit ms, s, m, h or d (`20s`, `1.5m`).
// @upstash/ratelimit takes the same values written with a space (`20 s`).

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
export type DurationUnit = keyof typeof UNIT_MS;

export const DURATION_PATTERN = /^(\d+(?:\.\d+)?)\s?(ms|s|m|h|d)$/;

export interface Duration {
  readonly milliseconds: number;
  /** The form @upstash/ratelimit accepts, e.g. `20 s`. */
  readonly upstash: `${number} ${DurationUnit}`;
}

/** Parses a window; undefined when it is not `<number><unit>` or not a positive whole number of ms. */
export function parseDuration(text: string): Duration | undefined {
  const match = DURATION_PATTERN.exec(text.trim());
  if (!match) return undefined;
  const value = Number(match[1]);
  const unit = match[2] as DurationUnit;
  const milliseconds = value * UNIT_MS[unit];
  if (!(milliseconds >= 1) || !Number.isInteger(milliseconds)) return undefined;
  // Whole numbers of their unit go as written; fractions (1.5m) go as milliseconds.
  return { milliseconds, upstash: Number.isInteger(value) ? `${value} ${unit}` : `${milliseconds} ms` };
}

export const DURATION_FORMAT = '<number><unit> with unit ms, s, m, h or d (for example 20s)';
