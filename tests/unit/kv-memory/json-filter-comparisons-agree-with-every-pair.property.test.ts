// Issue 25 finding 1's fix compares a JSON filter's two sides through sets and extremes instead of
// pair by pair. This property proves it answers what trying every pair answers, for every operator,
// on sides long enough to take the summarised path, drawn so that near-misses are common: integers
// next to floats of the same value (1 == 1.0, 2^53 + 1 against 2^53 as a double), -0, strings that
// sort near each other, booleans, null, and small arrays and objects (equal ones included).
import fc from 'fast-check';
import { pairHolds, someComparisonHolds } from '../../../mock/kv-rest/memory/json/json-filter-comparison';
import type { Comparison } from '../../../mock/kv-rest/memory/json/json-path-filter';
import { floatValue, integerValue, type JsonValue } from '../../../mock/kv-rest/memory/json/json-value';

const TWO_TO_53 = 2n ** 53n;

const scalar: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.constantFrom(-2n, 0n, 1n, 3n, TWO_TO_53, TWO_TO_53 + 1n, 2n ** 64n - 1n).map(integerValue),
  fc.constantFrom(-2, -0, 0, 1, 1.5, 3, 2 ** 53, 1e300).map(floatValue),
  fc.constantFrom('', 'a', 'ab', 'b', 's1', 's10'),
  fc.boolean(),
  fc.constant(null),
);

const value: fc.Arbitrary<JsonValue> = fc.oneof(
  { weight: 6, arbitrary: scalar },
  fc.array(scalar, { maxLength: 2 }),
  fc.dictionary(fc.constantFrom('a', 'b'), scalar, { maxKeys: 2 }).map((members) => new Map(Object.entries(members))),
);

const operator = fc.constantFrom<Comparison>('==', '!=', '<', '<=', '>', '>=');

/** RedisJSON's rule, one pair at a time: any pair holds (`!=`: no pair is equal). */
function everyPair(left: readonly JsonValue[], right: readonly JsonValue[], comparison: Comparison): boolean {
  const any = (pair: Exclude<Comparison, '!='>) => left.some((a) => right.some((b) => pairHolds(a, b, pair, () => {})));
  return comparison === '!=' ? !any('==') : any(comparison);
}

describe('JSON filter comparisons (issue 25 finding 1)', () => {
  it('answer through sets and extremes what comparing every pair answers', () => {
    fc.assert(
      fc.property(fc.array(value, { maxLength: 12 }), fc.array(value, { maxLength: 12 }), operator, (left, right, comparison) => {
        expect(someComparisonHolds(left, right, comparison, () => {})).toBe(everyPair(left, right, comparison));
      }),
      { numRuns: 3000, seed: Number(process.env.FAST_CHECK_SEED ?? 20260425) },
    );
  });

  it('pay for each pair of containers before comparing any, and for their members as they are walked', () => {
    const arrays = (count: number) => Array.from({ length: count }, (_, i): JsonValue => [integerValue(BigInt(i)), integerValue(0n)]);
    const paid: number[] = [];
    expect(someComparisonHolds(arrays(5), [...arrays(5).slice(1), 'x'], '==', (count) => paid.push(count))).toBe(true);
    // 5 x 4 pairs up front; then [0, 0] against each of the 4 right arrays pays 2 members and differs,
    // and [1, 0] against [1, 0] pays 2 and is equal.
    expect(paid).toEqual([20, 2, 2, 2, 2, 2]);
  });
});
