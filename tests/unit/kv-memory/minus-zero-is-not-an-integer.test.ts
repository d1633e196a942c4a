// Redis reads integers with string2ll, which refuses `-0` as it refuses leading zeros: INCR on a
// "-0" value and a `-0` count or time are errors in Redis, and must be in the memory engine too
// (found by the OBJECT ENCODING differential suite, where SET x -0 then INCR x disagreed). Nor is an
// integer reply ever -0: redis-server casts a script's number to a C integer (-0.5 answers 0), where
// the memory engine's Lua answered Math.trunc's -0 and its native twins 0 (a seed of the native
// ratelimit scripts' property test found the two disagreeing).
import { useEngine } from './memory-engine-harness';

describe('memory engine: -0 is not an integer', () => {
  const subject = useEngine();
  const run = (...args: (string | number)[]) => subject().run(...args);
  const NOT_AN_INTEGER = { error: 'ERR value is not an integer or out of range' };

  it('refuses INCR on a "-0" value, and -0 as an EXPIRE time or an LRANGE index, as Redis does', async () => {
    await run('SET', 'm', '-0');
    await run('RPUSH', 'l', 'a');
    expect([await run('INCR', 'm'), await run('EXPIRE', 'm', '-0'), await run('LRANGE', 'l', '-0', '1')]).toEqual([NOT_AN_INTEGER, NOT_AN_INTEGER, NOT_AN_INTEGER]);
    expect([await run('GET', 'm'), await run('OBJECT', 'ENCODING', 'm')]).toEqual(['-0', 'embstr']);
  });

  it('answers a script\'s negative fraction as the integer 0, never -0, as redis-server does', async () => {
    expect([await run('EVAL', 'return -0.5', '0'), await run('EVAL', 'return {-0.25, 0.5}', '0')]).toEqual([0, [0, 0]]);
  });
});
