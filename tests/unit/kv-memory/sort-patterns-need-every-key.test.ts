// SORT's BY and GET patterns read keys that no key position names (`w_*` becomes `w_<element>`), so
// a user limited to some keys could read others through them. As in Redis 7.0, only a user allowed
// every key may use them; the sorted key and STORE's destination are checked like any key.
import { useEngine } from './memory-engine-harness';
import { executeAsSent } from '../../support/engine-commands';

describe('memory engine: SORT patterns and ACL key patterns', () => {
  const subject = useEngine();
  const run = (...args: string[]) => subject().run(...args);
  const as = (user: string) => async (...args: string[]) =>
    (await executeAsSent(subject().engine, [args], { transaction: false, caller: { user, address: '127.0.0.1:40000' } }))[0];

  beforeEach(async () => {
    await run('RPUSH', 'app:list', 'secret');
    await run('SET', 'other:secret', 'hidden');
    await run('ACL', 'SETUSER', 'scoped', 'on', 'nopass', '~app:*', '+@all');
  });

  it('refuses GET and BY patterns to a user limited to some keys, with the texts of Redis', async () => {
    const scoped = as('scoped');
    expect(await scoped('SORT', 'app:list', 'ALPHA', 'GET', 'other:*')).toEqual({ kind: 'error', message: 'ERR GET option of SORT denied due to insufficient ACL permissions.' });
    expect(await scoped('SORT_RO', 'app:list', 'BY', 'other:*')).toEqual({ kind: 'error', message: 'ERR BY option of SORT denied due to insufficient ACL permissions.' });
    expect(await scoped('SORT', 'app:list', 'ALPHA', 'STORE', 'other:copy')).toEqual({ kind: 'error', message: 'NOPERM this user has no permissions to access one of the keys used as arguments' });
  });

  it('lets the same user sort its own keys without patterns, and a user allowed every key use them', async () => {
    expect(await as('scoped')('SORT', 'app:list', 'ALPHA', 'BY', 'constant', 'STORE', 'app:copy')).toEqual({ kind: 'integer', value: 1 });
    expect(await run('SORT', 'app:list', 'ALPHA', 'GET', 'other:*')).toEqual(['hidden']);
  });
});
