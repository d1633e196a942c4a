// Test support: how many of some times fall in one window of `period` ms placed anywhere ([t, t +
// period)), the measure a flow-control rate bounds.

export function mostInOnePeriod(times: readonly number[], period: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let first = 0, last = 0; last < sorted.length; last++) {
    while (sorted[last] - sorted[first] >= period) first++;
    most = Math.max(most, last - first + 1);
  }
  return most;
}
