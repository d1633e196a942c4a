// INCR family and INCRBYFLOAT: 64-bit bounds with Redis's overflow errors, and long-double
// arithmetic printed the way Redis prints it.
import { formatLongDouble, parseLongDouble, addLongDoubles } from '../../../mock/kv-rest/memory/long-double';
import { useEngine } from './memory-engine-harness';

describe('memory engine: counters', () => {
  const subject = useEngine();
  const run = (...args: (string | number)[]) => subject().run(...args);

  it('counts from zero and keeps the expiry of the counter', async () => {
    expect(await run('INCR', 'n')).toBe(1);
    expect(await run('INCRBY', 'n', '41')).toBe(42);
    expect(await run('DECR', 'n')).toBe(41);
    expect(await run('DECRBY', 'n', '-9')).toBe(50);
    await run('PEXPIRE', 'n', '60000');
    expect(await run('INCR', 'n')).toBe(51);
    expect(await run('PTTL', 'n')).toBeGreaterThan(59000);
    expect(await run('GET', 'n')).toBe('51');
  });

  it('refuses to overflow a signed 64-bit integer', async () => {
    await run('SET', 'n', '9223372036854775806');
    expect(await subject().reply('INCR', 'n')).toEqual({ kind: 'integer', value: 9223372036854775807n });
    expect(await run('INCR', 'n')).toEqual({ error: 'ERR increment or decrement would overflow' });
    expect(await run('GET', 'n')).toBe('9223372036854775807');
    await run('SET', 'm', '-9223372036854775808');
    expect(await run('DECR', 'm')).toEqual({ error: 'ERR increment or decrement would overflow' });
    expect(await run('DECRBY', 'x', '-9223372036854775808')).toEqual({ error: 'ERR decrement would overflow' });
    expect(await run('INCRBY', 'x', '9223372036854775808')).toEqual({ error: 'ERR value is not an integer or out of range' });
  });

  it('refuses values that are not integers as Redis writes them', async () => {
    for (const value of [' 1', '01', '+1', '1.5', 'abc', '']) {
      await run('SET', 'n', value);
      expect(await run('INCR', 'n')).toEqual({ error: 'ERR value is not an integer or out of range' });
    }
    expect(await run('INCRBY', 'n', '1.5')).toEqual({ error: 'ERR value is not an integer or out of range' });
  });

  it.each([
    [['10.50', '0.1'], '10.6'],
    [['10.6', '-5'], '5.6'],
    [['5.0e3', '2.0e2'], '5200'],
    [['0.1', '0.2'], '0.3'],
    [['3.0000000000000001', '1e-18'], '3.0000000000000001'],
    [['0', '1.23456789012345678901'], '1.23456789012345679'],
    [['0', '-0.00000000000000000001'], '0'],
    [['7', '-7'], '0'],
    [['0', '12345678901234567890123'], '12345678901234567889920'],
  ])('INCRBYFLOAT %j answers %s', async ([start, increment], expected) => {
    await run('SET', 'f', start);
    expect(await run('INCRBYFLOAT', 'f', increment)).toBe(expected);
    expect(await run('GET', 'f')).toBe(expected);
  });

  it('refuses invalid floats and infinite results', async () => {
    expect(await run('INCRBYFLOAT', 'f', 'abc')).toEqual({ error: 'ERR value is not a valid float' });
    expect(await run('INCRBYFLOAT', 'f', 'nan')).toEqual({ error: 'ERR value is not a valid float' });
    expect(await run('INCRBYFLOAT', 'f', ' 5')).toEqual({ error: 'ERR value is not a valid float' });
    expect(await run('INCRBYFLOAT', 'f', 'inf')).toEqual({ error: 'ERR increment would produce NaN or Infinity' });
    await run('SET', 'text', 'abc');
    expect(await run('INCRBYFLOAT', 'text', '1')).toEqual({ error: 'ERR value is not a valid float' });
    expect(await run('INCRBYFLOAT', 'f', '.5')).toBe('0.5');
  });

  it('prints a huge long double with all its binary digits, as "%.17Lf" does', () => {
    const value = parseLongDouble('1e400');
    expect(value && formatLongDouble(addLongDoubles(value, parseLongDouble('0')!))).toMatch(/^10000000000000000000281880683947586514586/);
  });
});
