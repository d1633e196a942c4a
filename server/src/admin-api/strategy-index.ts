// A strategy named by its index in the config, as the admin API receives it: a JSON number in a body
// (reset, deny "as listed") or decimal digits in a path (`/strategies/2/limit`). One check and one
// sentence for both, so every route accepts the same indexes and says the same thing when it does not.

/** What a 400 says when an index names no configured strategy. */
export const strategyIndexMessage = (count: number): string =>
  count === 0 ? 'strategy must be the index of a configured strategy (none is configured)' : `strategy must be the index of a configured strategy (0 to ${count - 1})`;

/** Whether a body's value is the index of one of `count` strategies. */
export const isStrategyIndex = (value: unknown, count: number): value is number => Number.isInteger(value) && (value as number) >= 0 && (value as number) < count;

/** A path's index (at most six decimal digits) of one of `count` strategies, or undefined. */
export function pathStrategyIndex(value: unknown, count: number): number | undefined {
  if (typeof value !== 'string' || !/^\d{1,6}$/.test(value)) return undefined;
  const index = Number(value);
  return isStrategyIndex(index, count) ? index : undefined;
}
