// OBJECT IDLETIME and MEMORY USAGE on the memory engine, which the differential suite cannot pin
// down: idle time counts whole seconds since the key was last looked up or written (OBJECT itself,
// KEYS and SCAN do not count as access, as in Redis), and MEMORY USAGE is an estimate that grows
// with the value. Time is a fake clock (Date.now only).
import { useEngine } from './memory-engine-harness';

describe('memory engine: OBJECT IDLETIME and MEMORY USAGE', () => {
  const subject = useEngine();
  const run = (...args: (string | number)[]) => subject().run(...args);
  let clock = 1_700_000_000_000;

  beforeEach(() => {
    jest.spyOn(Date, 'now').mockImplementation(() => clock);
  });
  afterEach(() => jest.restoreAllMocks());

  it('counts idle seconds from the last read or write (RENAME is one, as in Redis), not from OBJECT, KEYS or SCAN', async () => {
    await run('SET', 'k', 'v');
    clock += 2_500;
    await run('OBJECT', 'IDLETIME', 'k');
    await run('KEYS', '*');
    await run('SCAN', 0);
    expect(await run('OBJECT', 'IDLETIME', 'k')).toBe(2);
    await run('RENAME', 'k', 'moved');
    clock += 1_000;
    expect([await run('OBJECT', 'IDLETIME', 'moved'), await run('OBJECT', 'IDLETIME', 'missing')]).toEqual([1, null]);
  });

  it('estimates more bytes for a larger value of each type, and nil for a missing key', async () => {
    const estimates: (string | number | null)[] = [];
    for (const size of [10, 2000]) {
      const items = Array.from({ length: size }, (_, index) => `member-${index}`);
      await run('SET', `s${size}`, 'x'.repeat(size));
      await run('RPUSH', `l${size}`, ...items);
      await run('SADD', `set${size}`, ...items);
      await run('HSET', `h${size}`, ...items.flatMap((item) => [item, item]));
      await run('ZADD', `z${size}`, ...items.flatMap((item, index) => [index, item]));
      for (const key of [`s${size}`, `l${size}`, `set${size}`, `h${size}`, `z${size}`]) estimates.push((await run('MEMORY', 'USAGE', key, 'SAMPLES', 0)) as number);
    }
    const [small, large] = [estimates.slice(0, 5) as number[], estimates.slice(5) as number[]];
    expect(small.map((bytes, index) => large[index] > bytes * 10)).toEqual([true, true, true, true, true]);
    expect(await run('MEMORY', 'USAGE', 'missing')).toBeNull();
  });
});
