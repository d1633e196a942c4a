// Redis 8.2's XDELEX and XACKDEL on the memory engine: the per-ID codes under KEEPREF, DELREF and
// ACKED, the consumer groups' pending lists they leave or clean, and the argument errors in Redis's
// words (the scenarios of Redis's own stream tests).
import { useEngine } from './memory-engine-harness';

describe('memory engine: XDELEX and XACKDEL', () => {
  const subject = useEngine();
  const run = (...args: (string | number)[]) => subject().run(...args);
  const EMPTY_PENDING = [0, null, null, null];

  /** Two entries, each delivered to two groups. */
  async function readByTwoGroups(): Promise<void> {
    await run('XADD', 's', '1-0', 'f', 'v');
    await run('XADD', 's', '2-0', 'f', 'v');
    for (const [group, consumer] of [['g1', 'c1'], ['g2', 'c2']]) {
      await run('XGROUP', 'CREATE', 's', group, '0');
      await run('XREADGROUP', 'GROUP', group, consumer, 'STREAMS', 's', '>');
    }
  }

  it('answers -1 for every ID of a missing key or group', async () => {
    expect(await run('XACKDEL', 's', 'g', 'IDS', 2, '1-1', '2-2')).toEqual([-1, -1]);
    expect(await run('XDELEX', 's', 'IDS', 1, '1-1')).toEqual([-1]);
    await run('XADD', 's', '1-0', 'f', 'v');
    expect(await run('XACKDEL', 's', 'g', 'IDS', 2, '1-1', '2-2')).toEqual([-1, -1]);
  });

  it('acknowledges and deletes with DELREF, cleaning every group', async () => {
    await readByTwoGroups();
    expect(await run('XACKDEL', 's', 'g1', 'DELREF', 'IDS', 2, '1-0', '2-0')).toEqual([1, 1]);
    expect([await run('XLEN', 's'), await run('XPENDING', 's', 'g1'), await run('XPENDING', 's', 'g2')]).toEqual([0, EMPTY_PENDING, EMPTY_PENDING]);
    expect(await run('XACKDEL', 's', 'g2', 'DELREF', 'IDS', 2, '1-0', '2-0')).toEqual([-1, -1]);
  });

  it('deletes under ACKED only what every group has acknowledged', async () => {
    await readByTwoGroups();
    expect(await run('XACKDEL', 's', 'g1', 'ACKED', 'IDS', 2, '1-0', '2-0')).toEqual([2, 2]);
    expect([await run('XLEN', 's'), await run('XPENDING', 's', 'g2')]).toEqual([2, [2, '1-0', '2-0', [['c2', '2']]]]);
    expect(await run('XACKDEL', 's', 'g2', 'ACKED', 'IDS', 2, '1-0', '2-0')).toEqual([1, 1]);
    expect(await run('XLEN', 's')).toBe(0);
  });

  it('keeps the other groups\' references with KEEPREF, the default, and lets them be acknowledged later', async () => {
    await readByTwoGroups();
    expect(await run('XACKDEL', 's', 'g1', 'IDS', 2, '1-0', '2-0')).toEqual([1, 1]);
    expect([await run('XLEN', 's'), await run('XPENDING', 's', 'g2')]).toEqual([0, [2, '1-0', '2-0', [['c2', '2']]]]);
    expect(await run('XACKDEL', 's', 'g2', 'KEEPREF', 'IDS', 2, '1-0', '2-0')).toEqual([1, 1]);
    expect(await run('XPENDING', 's', 'g2')).toEqual(EMPTY_PENDING);
  });

  it('deletes with XDELEX per policy: an entry a group has not read yet counts as referenced under ACKED', async () => {
    await run('XADD', 's', '1-0', 'f', 'v');
    await run('XGROUP', 'CREATE', 's', 'g', '0');
    await run('XADD', 's', '2-0', 'f', 'v');
    await run('XREADGROUP', 'GROUP', 'g', 'c', 'COUNT', 1, 'STREAMS', 's', '>');
    expect(await run('XDELEX', 's', 'ACKED', 'IDS', 3, '1-0', '2-0', '9-0')).toEqual([2, 2, -1]);
    await run('XACK', 's', 'g', '1-0');
    expect(await run('XDELEX', 's', 'ACKED', 'IDS', 2, '1-0', '2-0')).toEqual([1, 2]);
    await run('XREADGROUP', 'GROUP', 'g', 'c', 'STREAMS', 's', '>');
    expect(await run('XDELEX', 's', 'DELREF', 'IDS', 1, '2-0')).toEqual([1]);
    expect([await run('XLEN', 's'), await run('XPENDING', 's', 'g')]).toEqual([0, EMPTY_PENDING]);
  });

  it('refuses bad arguments in Redis\'s words', async () => {
    await run('SET', 'str', 'v');
    const refusals = await Promise.all([
      run('XACKDEL', 's', 'g', 'IDS', 'abc', '1-1'),
      run('XACKDEL', 's', 'g', 'IDS', -5, '1-1'),
      run('XACKDEL', 's', 'g', 'IDS', 3, '1-1', '2-2'),
      run('XACKDEL', 's', 'g', 'IDS', 1, '1-1', '2-2'),
      run('XACKDEL', 's', 'g', 'KEEPREF', 'DELREF', 'IDS', 1, '1-1'),
      run('XDELEX', 's', 'IDS', 1, 'not-an-id'),
      run('XDELEX', 'str', 'IDS', 1, '1-1'),
    ]);
    expect(refusals).toEqual([
      { error: 'ERR Number of IDs must be a positive integer' },
      { error: 'ERR Number of IDs must be a positive integer' },
      { error: 'ERR The `numids` parameter must match the number of arguments' },
      { error: 'ERR syntax error' },
      { error: 'ERR syntax error' },
      { error: 'ERR Invalid stream ID specified as stream command argument' },
      { error: 'WRONGTYPE Operation against a key holding the wrong kind of value' },
    ]);
  });
});
