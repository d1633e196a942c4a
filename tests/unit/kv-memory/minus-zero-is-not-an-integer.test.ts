// Redis reads integers with string2ll, which refuses `-0` as it refuses leading zeros: INCR on a
// "-0" value and a `-0` count or time are errors in Redis, and must be in the memory engine too
// (found by the OBJECT ENCODING differential suite, where SET x -0 then INCR x disagreed).
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
});
