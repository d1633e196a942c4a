// The memory engine's streams beyond what the differential suite can compare with a live Redis:
// IDs from the clock (`*`, `<ms>-*`), BLOCK refused everywhere (HTTP, scripts, transactions), reply
// bounds, ACL categories and key positions, and copies that do not share state.
import { useEngine } from './memory-engine-harness';
import { executeAsSent } from '../../support/engine-commands';

describe('memory engine: streams', () => {
  const subject = useEngine({ maxReplyElements: 50 });
  const run = (...args: (string | number)[]) => subject().run(...args);
  afterEach(() => jest.restoreAllMocks());

  it('gives `*` the clock milliseconds and counts the sequence up within one millisecond or when the clock goes back', async () => {
    const clock = jest.spyOn(Date, 'now').mockReturnValue(1_700_000_000_000);
    expect(await run('XADD', 's', '*', 'f', 'v')).toBe('1700000000000-0');
    expect(await run('XADD', 's', '*', 'f', 'v')).toBe('1700000000000-1');
    clock.mockReturnValue(1_600_000_000_000);
    expect(await run('XADD', 's', '*', 'f', 'v')).toBe('1700000000000-2');
    expect(await run('XADD', 's', '1700000000000-*', 'f', 'v')).toBe('1700000000000-3');
    expect(await run('XADD', 's', '1800000000000-*', 'f', 'v')).toBe('1800000000000-0');
    expect(await run('XADD', 's', '1700000000000-*', 'f', 'v')).toEqual({ error: 'ERR The ID specified in XADD is equal or smaller than the target stream top item' });
  });

  it('refuses BLOCK on XREAD and XREADGROUP whatever else the call holds, in scripts too', async () => {
    const refusal = (name: string) => ({ error: `ERR Command is not available: '${name}' (blocking commands are not supported by the REST API)` });
    expect(await run('XREAD', 'COUNT', '1', 'BLOCK', '0', 'STREAMS', 's', '$')).toEqual(refusal('XREAD'));
    expect(await run('XREADGROUP', 'GROUP', 'block', 'c', 'BLOCK', '10', 'STREAMS', 's', '>')).toEqual(refusal('XREADGROUP'));
    expect(await run('EVAL', "return redis.pcall('XREAD', 'BLOCK', '0', 'STREAMS', 's', '$')", 0)).toEqual({ error: 'ERR This Redis command is not allowed from script' });
    // A group or stream named "block" is no BLOCK option.
    expect(await run('XGROUP', 'CREATE', 'block', 'block', '$', 'MKSTREAM')).toBe('OK');
    expect(await run('XREADGROUP', 'GROUP', 'block', 'block', 'STREAMS', 'block', '>')).toBe(null);
  });

  it('answers an error instead of a reply past the reply bound, without trimming or delivering anything', async () => {
    for (let id = 1; id <= 60; id++) await run('XADD', 's', `${id}-0`, 'f', 'v');
    await run('XGROUP', 'CREATE', 's', 'g', '0');
    const tooLarge = { error: 'ERR reply too large: more than 50 elements, more than this server\'s limit of 50 (maxReplyElements)' };
    expect(await run('XRANGE', 's', '-', '+')).toEqual(tooLarge);
    expect(await run('XRANGE', 's', '-', '+', 'COUNT', 10)).toHaveLength(10);
    expect(await run('XREADGROUP', 'GROUP', 'g', 'c', 'STREAMS', 's', '>')).toEqual(tooLarge);
    expect(await run('XPENDING', 's', 'g')).toEqual([0, null, null, null]);
    expect(await run('XREADGROUP', 'GROUP', 'g', 'c', 'COUNT', 2, 'STREAMS', 's', '>')).toEqual([['s', [['1-0', ['f', 'v']], ['2-0', ['f', 'v']]]]]);
    expect(await run('XLEN', 's')).toBe(60);
  });

  it('counts streams in the @stream ACL category and finds XREAD keys after STREAMS for key patterns', async () => {
    await run('XADD', 'app:s', '1-0', 'f', 'v');
    await run('XADD', 'other', '1-0', 'f', 'v');
    await run('ACL', 'SETUSER', 'streamer', 'on', 'nopass', '~app:*', '+@stream');
    const caller = { user: 'streamer', address: '127.0.0.1:40000' };
    const as = async (...args: string[]) => (await executeAsSent(subject().engine, [args], { transaction: false, caller }))[0];
    expect(await as('XLEN', 'app:s')).toEqual({ kind: 'integer', value: 1 });
    expect(await as('XREAD', 'STREAMS', 'app:s', 'other', '0', '0')).toEqual({ kind: 'error', message: 'NOPERM this user has no permissions to access one of the keys used as arguments' });
    expect(await as('GET', 'app:s')).toEqual({ kind: 'error', message: "NOPERM this user has no permissions to run the 'get' command" });
  });

  it('copies a stream with its groups, so that reading the copy leaves the original pending list alone', async () => {
    await run('XADD', 's', '1-0', 'f', 'v');
    await run('XGROUP', 'CREATE', 's', 'g', '0');
    await run('XREADGROUP', 'GROUP', 'g', 'c', 'STREAMS', 's', '>');
    expect(await run('COPY', 's', 't')).toBe(1);
    expect(await run('XACK', 't', 'g', '1-0')).toBe(1);
    expect(await run('XPENDING', 's', 'g')).toEqual([1, '1-0', '1-0', [['c', '1']]]);
    expect(await run('XPENDING', 't', 'g')).toEqual([0, null, null, null]);
  });
});
