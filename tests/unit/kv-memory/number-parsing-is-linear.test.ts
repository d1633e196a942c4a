// Review finding: the memory engine read decimal numbers with `\d+\.?\d*`, which backtracks
// quadratically on a long run of digits followed by a stray character. A caller could store such a
// text as a SORT weight or send it as a score, and stall the engine (16,000 digits: 0.4 s; a
// megabyte: about half an hour). Each parser now answers as Redis does, in linear time.
import { useEngine } from './memory-engine-harness';

const DIGITS_THEN_JUNK = `${'1'.repeat(1_000_000)}x`;

describe('numbers in arguments and values are read in linear time', () => {
  const current = useEngine();

  it('answers a SORT whose BY weight is a megabyte of digits and a stray character within 1 s', async () => {
    const { run } = current();
    await run('RPUSH', 'sortable', '1', '2');
    await run('SET', 'weight_1', DIGITS_THEN_JUNK);
    const started = Date.now();
    expect(await run('SORT', 'sortable', 'BY', 'weight_*')).toEqual({ error: 'ERR One or more scores can\'t be converted into double' });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('answers ZADD, ZRANGEBYSCORE and INCRBYFLOAT given such a number within 1 s', async () => {
    const { run } = current();
    const started = Date.now();
    expect(await run('ZADD', 'scores', DIGITS_THEN_JUNK, 'member')).toEqual({ error: 'ERR value is not a valid float' });
    expect(await run('ZRANGEBYSCORE', 'scores', DIGITS_THEN_JUNK, '+inf')).toEqual({ error: 'ERR min or max is not a float' });
    expect(await run('INCRBYFLOAT', 'counter', DIGITS_THEN_JUNK)).toEqual({ error: 'ERR value is not a valid float' });
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
