// ACL users of the memory engine: ACL SETUSER rules, authentication, and refusals with Redis 7.0's
// NOPERM texts for commands, keys and channels; a deleted or disabled user is refused at once.
import type { Caller } from '../../../mock/kv-rest/engine';
import { engineUnderTest, useEngine } from './memory-engine-harness';
import { plain } from '../../fixtures/plain-replies';
import { executeAsSent } from '../../support/engine-commands';

describe('memory engine: ACL users', () => {
  const subject = useEngine();
  const run = (...args: (string | number)[]) => subject().run(...args);
  const as = (user: string) => {
    const caller: Caller = { user, address: '127.0.0.1:40000' };
    return async (...args: string[]) => plain((await executeAsSent(subject().engine, [args], { transaction: false, caller }))[0]);
  };

  it('creates a full user that authenticates and may run anything', async () => {
    expect(await run('ACL', 'SETUSER', 'writer', 'on', '>s3cret', '~*', '&*', '+@all')).toBe('OK');
    expect(await subject().engine.authenticate('writer', 's3cret')).toBe(true);
    expect(await subject().engine.authenticate('writer', 'wrong')).toBe(false);
    expect(await subject().engine.authenticate('ghost', 's3cret')).toBe(false);
    const writer = as('writer');
    expect(await writer('SET', 'k', 'v')).toBe('OK');
    expect(await writer('ACL', 'WHOAMI')).toBe('writer');
    expect(await writer('PUBLISH', 'ch', 'x')).toBe(0);
  });

  it('lets a +@read user read but not write, with the NOPERM text of Redis', async () => {
    await run('SET', 'k', 'v');
    await run('ACL', 'SETUSER', 'reader', 'on', '>pw', '~*', '+@read');
    const reader = as('reader');
    expect(await reader('GET', 'k')).toBe('v');
    expect(await reader('HGETALL', 'k')).toEqual({ error: 'WRONGTYPE Operation against a key holding the wrong kind of value' });
    expect(await reader('SET', 'k', 'x')).toEqual({ error: "NOPERM this user has no permissions to run the 'set' command" });
    expect(await reader('ACL', 'SETUSER', 'x')).toEqual({ error: "NOPERM this user has no permissions to run the 'acl|setuser' command" });
  });

  it('limits keys to the user patterns and channels to its channel patterns', async () => {
    await run('ACL', 'SETUSER', 'scoped', 'on', 'nopass', '~app:*', '&news', '+@all');
    const scoped = as('scoped');
    expect(await scoped('SET', 'app:1', 'v')).toBe('OK');
    expect(await scoped('MGET', 'app:1', 'other')).toEqual({ error: 'NOPERM this user has no permissions to access one of the keys used as arguments' });
    expect(await scoped('PUBLISH', 'news', 'x')).toBe(0);
    expect(await scoped('PUBLISH', 'sport', 'x')).toEqual({ error: 'NOPERM this user has no permissions to access one of the channels used as arguments' });
    const caller = { user: 'scoped', address: '127.0.0.1:1' };
    await expect(subject().engine.subscribe('channel', ['sport'], () => undefined, caller)).rejects.toThrow(/NOPERM/);
    await expect(subject().engine.subscribe('channel', ['news'], () => undefined, caller)).resolves.toBeDefined();
  });

  it('separates read and write key patterns (%R~ and %W~)', async () => {
    await run('ACL', 'SETUSER', 'split', 'on', 'nopass', '%R~public:*', '~own:*', '+@all');
    const split = as('split');
    expect(await split('GET', 'public:a')).toBeNull();
    expect(await split('SET', 'public:a', 'v')).toEqual({ error: 'NOPERM this user has no permissions to access one of the keys used as arguments' });
    expect(await split('SET', 'own:a', 'v')).toBe('OK');
  });

  it('applies rules in order, and all or none of them', async () => {
    await run('ACL', 'SETUSER', 'u', 'on', 'nopass', '~*', '+@all', '-set', '-@hash');
    const u = as('u');
    expect(await u('GET', 'k')).toBeNull();
    expect(await u('SET', 'k', 'v')).toEqual({ error: "NOPERM this user has no permissions to run the 'set' command" });
    expect(await u('HGET', 'k', 'f')).toEqual({ error: "NOPERM this user has no permissions to run the 'hget' command" });
    expect(await run('ACL', 'SETUSER', 'u', '+set', 'bogus')).toEqual({ error: "ERR Error in ACL SETUSER modifier 'bogus': Syntax error" });
    expect(await u('SET', 'k', 'v')).toEqual({ error: "NOPERM this user has no permissions to run the 'set' command" });
    expect(await run('ACL', 'SETUSER', 'u', '+nosuch')).toEqual({ error: "ERR Error in ACL SETUSER modifier '+nosuch': Unknown command or category name in ACL" });
    expect(await run('ACL', 'SETUSER', 'u', '+@nosuch')).toEqual({ error: "ERR Error in ACL SETUSER modifier '+@nosuch': Unknown command or category name in ACL" });
  });

  it('knows the categories of every family, from the command table', async () => {
    await run('ACL', 'SETUSER', 'sets-only', 'on', 'nopass', '~*', '+@set', '+@sortedset', '-@write');
    const user = as('sets-only');
    expect(await user('SMEMBERS', 's')).toEqual([]);
    expect(await user('ZRANGE', 'z', '0', '-1')).toEqual([]);
    expect(await user('SADD', 's', 'a')).toEqual({ error: "NOPERM this user has no permissions to run the 'sadd' command" });
    expect(await user('GET', 'k')).toEqual({ error: "NOPERM this user has no permissions to run the 'get' command" });
    expect(await run('ACL', 'SETUSER', 'u', '+@hyperloglog', '+@bitmap', '+@string', '+@keyspace', '+@list', '+@hash', '+@pubsub', '+@scripting', '+@connection', '+@dangerous', '+@admin')).toBe('OK');
  });

  it('words refusals inside a script as Redis 7.0 does for the script author', async () => {
    await run('ACL', 'SETUSER', 'mine', 'on', 'nopass', '~mine*', '+@all', '-get');
    const mine = as('mine');
    expect(await mine('EVAL', "return redis.pcall('DEL', 'secret')", '0')).toEqual({
      error: "ERR The user executing the script can't access at least one of the keys mentioned in the command arguments",
    });
    expect(await mine('EVAL', "return redis.pcall('GET', 'mine1')", '0')).toEqual({ error: "ERR The user executing the script can't run this command or subcommand" });
  });

  it('refuses a user once disabled or deleted, and lists users', async () => {
    await run('ACL', 'SETUSER', 'temp', 'on', '>pw', '~*', '+@all');
    expect(await run('ACL', 'USERS')).toEqual(['default', 'temp']);
    expect(await run('ACL', 'LIST')).toEqual([
      'user default on nopass ~* &* +@all',
      `user temp on #30c952fab122c3f9759f02a6d95c3758b246b4fee239957b2d4fee46e26170c4 ~* resetchannels +@all`,
    ]);
    await run('ACL', 'SETUSER', 'temp', 'off');
    expect(await subject().engine.authenticate('temp', 'pw')).toBe(false);
    expect(await as('temp')('PING')).toEqual({ error: expect.stringMatching(/^NOPERM/) });
    expect(await run('ACL', 'DELUSER', 'temp', 'nobody')).toBe(1);
    expect(await run('ACL', 'DELUSER', 'default')).toEqual({ error: "ERR The 'default' user cannot be removed" });
    expect(await as('temp')('PING')).toEqual({ error: expect.stringMatching(/^NOPERM/) });
  });

  it('creates new users disabled, with no rights, until told otherwise', async () => {
    await run('ACL', 'SETUSER', 'blank');
    expect(await subject().engine.authenticate('blank', '')).toBe(false);
    await run('ACL', 'SETUSER', 'blank', 'on', 'nopass');
    expect(await subject().engine.authenticate('blank', 'anything')).toBe(true);
    expect(await as('blank')('GET', 'k')).toEqual({ error: "NOPERM this user has no permissions to run the 'get' command" });
  });

  it('refuses MONITOR to a user without the right', async () => {
    const engine = engineUnderTest();
    try {
      await engine.run('ACL', 'SETUSER', 'reader', 'on', 'nopass', '~*', '+@read');
      await expect(engine.engine.monitor(() => undefined, { user: 'reader', address: 'x' })).rejects.toThrow(/NOPERM/);
    } finally {
      await engine.engine.close();
    }
  });
});
