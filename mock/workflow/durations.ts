// The workflow API's time values: `Delay` (`10s`, `1d2h3m`: one or more <number><unit> with unit
// s, m, h or d) and the flow-control `period` (same grammar). Answers milliseconds or undefined.
// MAX_WAIT_MS is the longest Delay, Not-Before distance or period the server accepts (the platform
// takes delays up to a year); longer ones are refused with 400 rather than held for ever.

const DAY_MS = 86_400_000;
export const MAX_WAIT_MS = 365 * DAY_MS;
export const MAX_WAIT_TEXT = '365d';

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: DAY_MS };
const COMBINED = /^(\d+(?:\.\d+)?[smhd])+$/;
const PART = /(\d+(?:\.\d+)?)([smhd])/g;

export function parseCombinedDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed.length > 100 || !COMBINED.test(trimmed)) return undefined;
  let total = 0;
  for (const [, value, unit] of trimmed.matchAll(PART)) total += Number(value) * UNIT_MS[unit];
  return Math.round(total);
}
