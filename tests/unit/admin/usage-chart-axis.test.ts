// The usage chart's y axis (issue 16: the chart had one label, the peak): round ticks from 0 that
// reach the busiest hour, evenly spaced, never more than five intervals, whole numbers only.
import fc from 'fast-check';
import { valueAxis } from '../../../admin/src/utils/chartAxis';

it.each([
  [0, [0, 1]],
  [1, [0, 1]],
  [4, [0, 1, 2, 3, 4]],
  [7, [0, 2, 4, 6, 8]],
  [11, [0, 5, 10, 15]],
  [100, [0, 20, 40, 60, 80, 100]],
  [1234, [0, 500, 1000, 1500]],
])('issue 16: a busiest hour of %p gets the ticks %p', (peak, ticks) => {
  expect(valueAxis(peak)).toEqual({ ticks, top: ticks[ticks.length - 1] });
});

it('for any busiest hour, the ticks start at 0, are whole and evenly spaced, at most 5 intervals, and the top reaches it', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 1e12 }), (peak) => {
      const { ticks, top } = valueAxis(peak);
      const step = ticks[1] - ticks[0];
      expect(ticks[0]).toBe(0);
      expect(ticks.every((tick, index) => Number.isInteger(tick) && tick === index * step)).toBe(true);
      expect(ticks.length - 1).toBeLessThanOrEqual(5);
      expect(top).toBe(ticks[ticks.length - 1]);
      expect(top).toBeGreaterThanOrEqual(Math.max(1, peak));
    }),
    { numRuns: 1000 },
  );
});
