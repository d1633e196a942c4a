// The y axis of the usage chart: evenly spaced round ticks (steps of 1, 2 or 5 times a power of ten)
// from 0 to at least the busiest hour, at most MAX_TICK_INTERVALS intervals, so labels stay readable
// and a bar never outgrows the axis.

const MAX_TICK_INTERVALS = 5;

export interface ValueAxis {
  /** Tick values from 0 up, evenly spaced; the last one is the top of the axis. */
  ticks: number[];
  top: number;
}

export function valueAxis(peak: number): ValueAxis {
  const rough = Math.max(1, peak) / MAX_TICK_INTERVALS;
  const power = 10 ** Math.floor(Math.log10(rough));
  // Counts are whole numbers, so a step is never below 1.
  const step = Math.max(1, [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= rough) ?? 10 * power);
  const top = Math.max(step, Math.ceil(peak / step) * step);
  return { ticks: Array.from({ length: top / step + 1 }, (_, index) => index * step), top };
}
