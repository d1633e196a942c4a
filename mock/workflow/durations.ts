// The workflow API's time values: `Delay` (`10s`, `1d2h3m`: one or more <number><unit> with unit
// s, m, h or d) and the flow-control `period` (same grammar). Answers milliseconds or undefined.

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const COMBINED = /^(\d+(?:\.\d+)?[smhd])+$/;
const PART = /(\d+(?:\.\d+)?)([smhd])/g;

export function parseCombinedDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (!COMBINED.test(trimmed)) return undefined;
  let total = 0;
  for (const [, value, unit] of trimmed.matchAll(PART)) total += Number(value) * UNIT_MS[unit];
  return Math.round(total);
}
