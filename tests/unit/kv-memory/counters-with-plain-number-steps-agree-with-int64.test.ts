// INCRBY and DECRBY add a step within 2^53 as a plain number (no BigInt per call, the rate limiters'
// case) and any other step in 64-bit integers. Both ways must answer what signed 64-bit arithmetic
// answers, with Redis's overflow errors, for every stored value and step.
import fc from 'fast-check';
import { engineUnderTest } from './memory-engine-harness';

const MAX_INT64 = 2n ** 63n - 1n;
const MIN_INT64 = -(2n ** 63n);

/** Integers around 0, around 2^53 and around the int64 bounds. */
const int64 = fc.oneof(
  fc.bigInt({ min: -1000n, max: 1000n }),
  fc.bigInt({ min: 2n ** 53n - 5n, max: 2n ** 53n + 5n }).map((value) => (Math.random() < 0.5 ? value : -value)),
  fc.bigInt({ min: MAX_INT64 - 5n, max: MAX_INT64 }),
  fc.bigInt({ min: MIN_INT64, max: MIN_INT64 + 5n }),
  fc.bigInt({ min: MIN_INT64, max: MAX_INT64 }),
);

function expected(current: bigint, step: bigint, decrement: boolean): bigint | { error: string } {
  if (decrement && step === MIN_INT64) return { error: 'ERR decrement would overflow' };
  const sum = current + (decrement ? -step : step);
  return sum > MAX_INT64 || sum < MIN_INT64 ? { error: 'ERR increment or decrement would overflow' } : sum;
}

describe('INCRBY and DECRBY with steps of every size', () => {
  it('answer signed 64-bit arithmetic and its overflow errors, and store the sum', async () => {
    const { engine, reply, run } = engineUnderTest();
    try {
      await fc.assert(
        fc.asyncProperty(int64, int64, fc.boolean(), async (current, step, decrement) => {
          await run('SET', 'counter', String(current));
          const answer = await reply(decrement ? 'DECRBY' : 'INCRBY', 'counter', String(step));
          const sum = expected(current, step, decrement);
          if (typeof sum === 'bigint') {
            expect(answer.kind === 'integer' && BigInt(answer.value)).toBe(sum);
            expect(await run('GET', 'counter')).toBe(String(sum));
          } else {
            expect(answer).toEqual({ kind: 'error', message: sum.error });
            expect(await run('GET', 'counter')).toBe(String(current));
          }
        }),
        { numRuns: 2_000 },
      );
    } finally {
      await engine.close();
    }
  });
});
