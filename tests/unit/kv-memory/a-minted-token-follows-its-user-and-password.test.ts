// Finding 13 (memory engine): a deleted ACL user's token worked again for a new user of the same name
// with another password. A minted token stands for a user and a password: the engine checks both on
// every command, so deleting the user, turning it off or changing its password refuses the token at
// once, and a new user of the same name does not inherit it.
import { createHash } from 'node:crypto';
import type { Caller } from '../../../mock/kv-rest/engine';
import { useEngine } from './memory-engine-harness';
import { plain } from '../../fixtures/plain-replies';
import { executeAsSent } from '../../support/engine-commands';

const sha256 = (password: string): string => createHash('sha256').update(password, 'latin1').digest('hex');

describe('a minted token follows its user and its password', () => {
  const subject = useEngine();
  const run = (...args: string[]) => subject().run(...args);
  const withToken = (user: string, password: string) => {
    const caller: Caller = { user, address: '127.0.0.1:40000', passwordSha256: sha256(password) };
    return async (...args: string[]) => plain((await executeAsSent(subject().engine, [args], { transaction: false, caller }))[0]);
  };
  const changed = { error: "NOPERM the password of user 'u' this token was issued for has been changed or removed" };
  const gone = { error: "NOPERM the user 'u' does not exist or is disabled" };

  it('refuses a deleted user token for a new user of the same name with another password', async () => {
    await run('ACL', 'SETUSER', 'u', 'on', '>old', '~*', '+@all');
    const oldToken = withToken('u', 'old');
    expect(await oldToken('SET', 'k', '1')).toBe('OK');
    await run('ACL', 'DELUSER', 'u');
    expect(await oldToken('SET', 'k', '2')).toEqual(gone);
    await run('ACL', 'SETUSER', 'u', 'on', '>new', '~*', '+@all');
    expect(await oldToken('SET', 'k', '3')).toEqual(changed);
    expect(await withToken('u', 'new')('SET', 'k', '4')).toBe('OK');
    expect(await run('GET', 'k')).toBe('4');
  });

  it('applies off, on and a password change to an existing token at once, subscriptions and MONITOR too', async () => {
    await run('ACL', 'SETUSER', 'u', 'on', '>pw', '~*', '&*', '+@all');
    const token = withToken('u', 'pw');
    await run('ACL', 'SETUSER', 'u', 'off');
    expect(await token('GET', 'k')).toEqual(gone);
    await run('ACL', 'SETUSER', 'u', 'on');
    expect(await token('GET', 'k')).toBeNull();
    await run('ACL', 'SETUSER', 'u', '<pw', '>other');
    expect(await token('GET', 'k')).toEqual(changed);
    const caller: Caller = { user: 'u', address: '127.0.0.1:40000', passwordSha256: sha256('pw') };
    await expect(subject().engine.subscribe('channel', ['ch'], () => undefined, caller)).rejects.toThrow(changed.error);
    await expect(subject().engine.monitor(() => undefined, caller)).rejects.toThrow(changed.error);
  });

  it('keeps a token working while the user is nopass, since any password then authenticates', async () => {
    await run('ACL', 'SETUSER', 'u', 'on', 'nopass', '~*', '+@all');
    expect(await withToken('u', 'anything')('PING')).toBe('PONG');
  });
});
