// Whether a JSONPath filter's comparison holds. RedisJSON's rule: when a term matches several values,
// the comparison holds if it holds for any pair (left value, right value), and `!=` holds if no pair
// is equal. Trying every pair costs K^2 for K values a side (issue 25: `@.* == $.b.*` over 30,000 a
// side took 11.3 s and held the server), so past a few pairs each side is summarised in one pass:
// equality looks each right value up in a set of the left ones, and an ordering holds for some pair
// exactly when it holds between one side's smallest and the other's largest value of a kind that
// orders (strings, integers, floats, booleans, null). Integers meet integers as exact bigints and
// floats as doubles, as the pairwise rule compares them; Number() keeps a bigint's order, so the
// extremes carry over. Only arrays and objects, which only `==` compares (member by member), still
// go pair by pair: their pairs are paid from the command's work budget before any is compared, and
// their members as they are walked. A property test proves the summaries answer as every pair does.
import type { Comparison } from './json-path-filter';
import { isNumber, isObject, jsonEquals, type JsonNumber, type JsonValue } from './json-value';

/** Pays `count` steps of work from the command's budget (throws past it). */
export type Spend = (count: number) => void;

type PairComparison = Exclude<Comparison, '!='>;

/** Up to this many pairs are compared one by one: cheaper than building sets for `@.price < 10`. */
const PAIRWISE_AT_MOST = 16;

const isContainer = (value: JsonValue): boolean => Array.isArray(value) || isObject(value);

/** Whether `operator` holds for some pair of `left` and `right` values (`!=`: for no pair `==` does). */
export function someComparisonHolds(left: readonly JsonValue[], right: readonly JsonValue[], operator: Comparison, spend: Spend): boolean {
  if (operator === '!=') return !someComparisonHolds(left, right, '==', spend);
  if (left.length * right.length <= PAIRWISE_AT_MOST) return left.some((a) => right.some((b) => pairHolds(a, b, operator, spend)));
  return operator === '==' ? someEqual(left, right, spend) : someOrdered(left, right, operator);
}

/** RedisJSON's comparison of one pair: numbers with numbers, strings with strings, booleans, nulls; containers only for equality. */
export function pairHolds(a: JsonValue, b: JsonValue, operator: PairComparison, spend: Spend): boolean {
  if (isNumber(a) && isNumber(b)) return orderHolds(numberOrder(a, b), operator);
  if (typeof a === 'string' && typeof b === 'string') return orderHolds(a < b ? -1 : a > b ? 1 : 0, operator);
  if (typeof a === 'boolean' && typeof b === 'boolean') return orderHolds(Number(a) - Number(b), operator);
  if (a === null && b === null) return orderHolds(0, operator);
  if (operator !== '==' || !isContainer(a) || !isContainer(b)) return false;
  spend(1);
  return jsonEquals(a, b, spend);
}

function numberOrder(a: JsonNumber, b: JsonNumber): number {
  if (a.kind === 'integer' && b.kind === 'integer') return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
  return Math.sign(Number(a.value) - Number(b.value));
}

function orderHolds(order: number, operator: PairComparison): boolean {
  switch (operator) {
    case '==':
      return order === 0;
    case '<':
      return order < 0;
    case '<=':
      return order <= 0;
    case '>':
      return order > 0;
    case '>=':
      return order >= 0;
  }
}

/**
 * `==` for some pair: the left values that are not containers go into a set (integers as bigints,
 * and as doubles apart, since an integer equals a float of its value), each right value is looked up.
 */
function someEqual(left: readonly JsonValue[], right: readonly JsonValue[], spend: Spend): boolean {
  const values = new Set<string | bigint | number | boolean | null>();
  const integersAsDoubles = new Set<number>();
  const leftContainers: JsonValue[] = [];
  for (const a of left) {
    if (isContainer(a)) leftContainers.push(a);
    else if (!isNumber(a)) values.add(a as string | boolean | null);
    else if (a.kind === 'float') values.add(a.value);
    else {
      values.add(a.value);
      integersAsDoubles.add(Number(a.value));
    }
  }
  const rightContainers: JsonValue[] = [];
  for (const b of right) {
    if (isContainer(b)) rightContainers.push(b);
    else if (!isNumber(b)) {
      if (values.has(b as string | boolean | null)) return true;
    } else if (b.kind === 'integer' ? values.has(b.value) || values.has(Number(b.value)) : values.has(b.value) || integersAsDoubles.has(b.value)) return true;
  }
  if (leftContainers.length === 0 || rightContainers.length === 0) return false;
  spend(leftContainers.length * rightContainers.length);
  return leftContainers.some((a) => rightContainers.some((b) => jsonEquals(a, b, spend)));
}

/** The smallest and largest value of one kind on one side. */
interface Extremes<T> {
  min: T;
  max: T;
}

function widen<T extends string | bigint | number>(extremes: Extremes<T> | undefined, value: T): Extremes<T> {
  if (extremes === undefined) return { min: value, max: value };
  if (value < extremes.min) extremes.min = value;
  else if (value > extremes.max) extremes.max = value;
  return extremes;
}

/** One side's extremes per kind that orders (booleans as 0 and 1, null as 0 compared only with null). */
interface OrderedSide {
  strings?: Extremes<string>;
  integers?: Extremes<bigint>;
  floats?: Extremes<number>;
  booleans?: Extremes<number>;
  nulls?: Extremes<number>;
}

function orderedSide(values: readonly JsonValue[]): OrderedSide {
  const side: OrderedSide = {};
  for (const value of values) {
    if (typeof value === 'string') side.strings = widen(side.strings, value);
    else if (typeof value === 'boolean') side.booleans = widen(side.booleans, Number(value));
    else if (value === null) side.nulls = widen(side.nulls, 0);
    else if (!isNumber(value)) continue;
    else if (value.kind === 'integer') side.integers = widen(side.integers, value.value);
    else side.floats = widen(side.floats, value.value);
  }
  return side;
}

const asDoubles = (extremes: Extremes<bigint> | undefined): Extremes<number> | undefined => extremes && { min: Number(extremes.min), max: Number(extremes.max) };

/** Whether the ordering holds for some pair of one kind: `<` and `<=` between left's smallest and right's largest, `>` and `>=` the other way. */
function holdsBetween<T extends string | bigint | number>(left: Extremes<T> | undefined, right: Extremes<T> | undefined, operator: PairComparison): boolean {
  if (left === undefined || right === undefined) return false;
  const [a, b] = operator === '<' || operator === '<=' ? [left.min, right.max] : [left.max, right.min];
  return orderHolds(a < b ? -1 : a > b ? 1 : 0, operator);
}

function someOrdered(left: readonly JsonValue[], right: readonly JsonValue[], operator: PairComparison): boolean {
  const l = orderedSide(left);
  const r = orderedSide(right);
  return (
    holdsBetween(l.strings, r.strings, operator) ||
    holdsBetween(l.integers, r.integers, operator) ||
    holdsBetween(asDoubles(l.integers), r.floats, operator) ||
    holdsBetween(l.floats, asDoubles(r.integers), operator) ||
    holdsBetween(l.floats, r.floats, operator) ||
    holdsBetween(l.booleans, r.booleans, operator) ||
    holdsBetween(l.nulls, r.nulls, operator)
  );
}
