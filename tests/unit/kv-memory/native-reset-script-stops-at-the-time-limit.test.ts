// The native reset script (resetUsedTokens) loops over SCAN like its Lua text, which the script
// time limit stops; the native loop must stop at the same limit, with the same BUSY error, rather
// than run on over a huge keyspace.
import { scriptSha } from '../../../shared/script-shebang';
import { useEngine } from './memory-engine-harness';
import { captureRatelimitScripts } from './ratelimit-script-texts';

describe('native reset script and the script time limit', () => {
  const subject = useEngine({ scriptTimeLimitMs: 50, activeExpiryIntervalMs: 3_600_000 });
  afterEach(() => jest.restoreAllMocks());

  it('stops with the BUSY error once a run is past the time limit, having deleted only what it reached', async () => {
    const reset = (await captureRatelimitScripts()).get('resetUsedTokens')!;
    const keys = Array.from({ length: 100 }, (_, index) => `caller:${index}`);
    await subject().run('MSET', ...keys.flatMap((key) => [key, '1']));
    await subject().run('SCRIPT', 'LOAD', reset);
    // Each clock reading is 10 ms after the last: the run is past its 50 ms within a few SCAN steps.
    let clock = 1_700_000_000_000;
    jest.spyOn(Date, 'now').mockImplementation(() => (clock += 10));
    const sha = scriptSha(reset);
    expect(await subject().run('EVALSHA', sha, '1', 'caller:*', 'null')).toEqual({ error: `BUSY script ${sha} ran longer than the script time limit of 50 ms and was stopped` });
    const left = (await subject().run('DBSIZE')) as number;
    expect(left > 0 && left < keys.length).toBe(true);
  });
});
