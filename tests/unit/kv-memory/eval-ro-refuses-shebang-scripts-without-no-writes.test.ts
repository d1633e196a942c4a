// EVAL_RO and EVALSHA_RO refuse a script whose `#!lua` line does not declare `no-writes`, before
// running it, as Redis 7.0 does (and as FCALL_RO refuses a function without the flag); a script
// without a shebang line, or with `no-writes`, runs read-only.
import { useEngine } from './memory-engine-harness';

const REFUSAL = { error: 'ERR Can not execute a script with write flag using *_ro command.' };

describe('EVAL_RO and EVALSHA_RO of shebang scripts', () => {
  const engine = useEngine();

  it('refuse a script whose shebang line lacks no-writes, and run the others', async () => {
    const sha = await engine().run('SCRIPT', 'LOAD', '#!lua\nreturn 1');
    expect({
      evalRo: await engine().run('EVAL_RO', '#!lua\nreturn 1', '0'),
      evalshaRo: await engine().run('EVALSHA_RO', String(sha), '0'),
      lockingOnly: await engine().run('EVAL_RO', '#!lua flags=allow-key-locking\nreturn 1', '0'),
      noWrites: await engine().run('EVAL_RO', '#!lua flags=no-writes\nreturn 1', '0'),
      noShebang: await engine().run('EVAL_RO', 'return 1', '0'),
      evalStill: await engine().run('EVAL', '#!lua\nreturn 1', '0'),
    }).toEqual({ evalRo: REFUSAL, evalshaRo: REFUSAL, lockingOnly: REFUSAL, noWrites: 1, noShebang: 1, evalStill: 1 });
  });
});
