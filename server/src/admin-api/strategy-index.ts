// A strategy named by its index in the config, as the admin API receives it: a JSON number in a body
// (reset, deny "as listed") or decimal digits in a path (`/strategies/2/limit`). One check and one
// sentence for both, so every route accepts the same indexes and says the same thing when it does not;
// and the programmatic API (`setLiveLimit`, `resetCaller`), whose callers may pass anything at run
// time: `rules['0']` is a rule in JavaScript, so only an integer is looked up.

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

/** The rule at a strategy index given from code, or a RangeError for anything but the index of one of `rules`. */
export function ruleAt<Rule>(rules: readonly Rule[], strategyIndex: unknown): Rule {
  if (!isStrategyIndex(strategyIndex, rules.length)) {
    throw new RangeError(`${strategyIndexMessage(rules.length)}, not ${typeof strategyIndex === 'string' ? JSON.stringify(strategyIndex) : String(strategyIndex)}`);
  }
  return rules[strategyIndex];
}
