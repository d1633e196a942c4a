// Issue 18, defect 2: the memory engine's ACL let restricted users run what Redis 7.0.15 refuses,
// because its key positions could not express numkeys and its categories were rebuilt by hand.
// Each expectation is the reply redis-server 7.0.15 gives to the same user and command.
import type { Caller } from '../../../mock/kv-rest/engine';
import { useEngine } from './memory-engine-harness';
import { plain } from '../../fixtures/plain-replies';
import { executeAsSent } from '../../support/engine-commands';

const NO_KEYS = { error: 'NOPERM this user has no permissions to access one of the keys used as arguments' };
const noCommand = (name: string) => ({ error: `NOPERM this user has no permissions to run the '${name}' command` });

describe('the ACL refuses what Redis would refuse', () => {
  const subject = useEngine();
  const as = (user: string) => {
    const caller: Caller = { user, address: '127.0.0.1:40000' };
    return async (...args: string[]) => plain((await executeAsSent(subject().engine, [args], { transaction: false, caller }))[0]);
  };
  const createUser = async (name: string, ...rules: string[]) => expect(await subject().run('ACL', 'SETUSER', name, 'on', 'nopass', ...rules)).toBe('OK');

  it('issue 18 defect 2: a ~mine* +@all user may not read `secret` through ZUNION 1 secret', async () => {
    await createUser('mine', '~mine*', '+@all');
    await subject().run('ZADD', 'secret', '1', 'm');
    expect(await as('mine')('ZUNION', '1', 'secret')).toEqual(NO_KEYS);
  });

  it('issue 18 defect 2: a ~mine* +@all user may not read `secret` through ZUNIONSTORE mine 1 secret', async () => {
    await createUser('mine', '~mine*', '+@all');
    await subject().run('ZADD', 'secret', '1', 'm');
    expect(await as('mine')('ZUNIONSTORE', 'mine', '1', 'secret')).toEqual(NO_KEYS);
    expect(await subject().run('EXISTS', 'mine')).toBe(0);
  });

  it('issue 18 defect 2: a ~mine* +@all user may not count `secret` through ZINTERCARD 1 secret', async () => {
    await createUser('mine', '~mine*', '+@all');
    expect(await as('mine')('ZINTERCARD', '1', 'secret')).toEqual(NO_KEYS);
  });

  it('issue 18 defect 2: a numkeys Redis reads with atoi (1abc, 01) still names its keys for the ACL', async () => {
    await createUser('mine', '~mine*', '+@all');
    expect(await as('mine')('ZUNION', '1abc', 'secret')).toEqual(NO_KEYS);
    expect(await as('mine')('ZUNION', '01', 'secret')).toEqual(NO_KEYS);
  });

  it('issue 18 defect 2: a +@read user may not run EVAL_RO or SCRIPT EXISTS (Redis files them under @scripting only)', async () => {
    await createUser('reader', '~*', '+@read');
    expect(await as('reader')('EVAL_RO', 'return 1', '0')).toEqual(noCommand('eval_ro'));
    expect(await as('reader')('SCRIPT', 'EXISTS', 'abc')).toEqual(noCommand('script|exists'));
  });

  it('issue 18 defect 2: a +@write user may not run EVAL', async () => {
    await createUser('writer', '~*', '+@write');
    expect(await as('writer')('EVAL', 'return 1', '0')).toEqual(noCommand('eval'));
  });
});
