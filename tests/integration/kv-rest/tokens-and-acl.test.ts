// Seed Area B, authentication: the Read Only token runs reads but not writes or powerful reads,
// and ACL RESTTOKEN mints a token that has the ACL user's permissions.
import type { KvRestServer } from '../../../mock';
import { call, describeEachEngine, postJson, startServer } from '../../support/kv-servers';

describeEachEngine('tokens and ACL', (engine) => {
  let server: KvRestServer;
  beforeAll(async () => {
    server = await startServer(engine);
    await call(server, '/set/shared/value');
  });
  afterAll(() => server.close());

  const readOnly = (path: string, init: RequestInit = {}) => call(server, path, { ...init, token: server.readonlyToken });

  it('lets the Read Only token read', async () => {
    expect((await readOnly('/get/shared')).json).toEqual({ result: 'value' });
    expect((await readOnly('/exists/shared')).json).toEqual({ result: 1 });
  });

  it.each([
    ['/set/shared/other'],
    ['/del/shared'],
    ['/keys/*'],
    ['/scan/0'],
    ['/flushall'],
    ['/eval/return%201/0'],
  ])('refuses %s to the Read Only token with NOPERM', async (path) => {
    const response = await readOnly(path);
    expect(response.status).toBe(400);
    expect((response.json as { error: string }).error).toMatch(/^NOPERM this user has no permissions to run the '.+' command$/);
  });

  it('refuses a write in a Read Only pipeline slot and runs the rest', async () => {
    const response = await postJson(server, '/pipeline', [['GET', 'shared'], ['SET', 'shared', 'x']], { token: server.readonlyToken });
    const [read, write] = response.json as { result?: string; error?: string }[];
    expect(read).toEqual({ result: 'value' });
    expect(write.error).toMatch(/^NOPERM/);
    expect((await call(server, '/get/shared')).json).toEqual({ result: 'value' });
  });

  it('mints a token for an ACL user with ACL RESTTOKEN, and refuses a wrong password', async () => {
    expect((await postJson(server, '/', ['ACL', 'SETUSER', 'writer', 'on', '>s3cret', '~*', '&*', '+@all'])).json).toEqual({ result: 'OK' });
    const minted = await postJson(server, '/', ['ACL', 'RESTTOKEN', 'writer', 's3cret']);
    expect(minted.status).toBe(200);
    const token = (minted.json as { result: string }).result;
    expect(typeof token).toBe('string');
    expect((await call(server, '/set/by-writer/1', { token })).json).toEqual({ result: 'OK' });
    expect((await call(server, '/acl/whoami', { token })).json).toEqual({ result: 'writer' });

    const wrong = await postJson(server, '/', ['ACL', 'RESTTOKEN', 'writer', 'nope']);
    expect(wrong.status).toBe(400);
    expect(wrong.json).toEqual({ error: 'ERR Wrong password or user "writer" does not exist' });
    const missing = await postJson(server, '/', ['ACL', 'RESTTOKEN', 'ghost', 'x']);
    expect(missing.json).toEqual({ error: 'ERR Wrong password or user "ghost" does not exist' });
  });

  it('gives a read-only ACL user a token that reads but cannot write', async () => {
    await postJson(server, '/', ['ACL', 'SETUSER', 'reader', 'on', '>pw', '~*', '+@read']);
    const token = ((await postJson(server, '/', ['ACL', 'RESTTOKEN', 'reader', 'pw'])).json as { result: string }).result;
    expect((await call(server, '/get/shared', { token })).json).toEqual({ result: 'value' });
    const write = await call(server, '/set/shared/x', { token });
    expect(write.status).toBe(400);
    expect((write.json as { error: string }).error).toMatch(/^NOPERM/);
  });

  it('stops honouring a minted token once its user is deleted', async () => {
    await postJson(server, '/', ['ACL', 'SETUSER', 'temp', 'on', '>pw', '~*', '+@all']);
    const token = ((await postJson(server, '/', ['ACL', 'RESTTOKEN', 'temp', 'pw'])).json as { result: string }).result;
    expect((await call(server, '/ping', { token })).json).toEqual({ result: 'PONG' });
    await postJson(server, '/', ['ACL', 'DELUSER', 'temp']);
    expect((await call(server, '/ping', { token })).status).toBe(400);
  });

  it('issue 13 finding 13: a token stands for the password it was minted with, so a user deleted and made again with another password does not revive it', async () => {
    const mint = async (password: string) => ((await postJson(server, '/', ['ACL', 'RESTTOKEN', 'again', password])).json as { result: string }).result;
    await postJson(server, '/', ['ACL', 'SETUSER', 'again', 'on', '>old', '~*', '+@all']);
    const old = await mint('old');
    expect((await call(server, '/ping', { token: old })).json).toEqual({ result: 'PONG' });
    await postJson(server, '/', ['ACL', 'DELUSER', 'again']);
    await postJson(server, '/', ['ACL', 'SETUSER', 'again', 'on', '>new', '~*', '+@all']);
    const renewed = await mint('new');
    expect(renewed).not.toBe(old);
    expect((await call(server, '/ping', { token: renewed })).json).toEqual({ result: 'PONG' });
    const revived = await call(server, '/ping', { token: old });
    expect([revived.status, (revived.json as { error?: string }).error]).toEqual([400, expect.stringMatching(/^(NOPERM|WRONGPASS)/)]);
  });

  it('issue 13 finding 13: a changed password retires the tokens minted with the old one', async () => {
    await postJson(server, '/', ['ACL', 'SETUSER', 'rotating', 'on', '>first', '~*', '+@all']);
    const first = ((await postJson(server, '/', ['ACL', 'RESTTOKEN', 'rotating', 'first'])).json as { result: string }).result;
    expect((await call(server, '/ping', { token: first })).json).toEqual({ result: 'PONG' });
    await postJson(server, '/', ['ACL', 'SETUSER', 'rotating', '<first', '>second']);
    const refused = await call(server, '/ping', { token: first });
    expect([refused.status, (refused.json as { error?: string }).error]).toEqual([400, expect.stringMatching(/^(NOPERM|WRONGPASS)/)]);
  });

  it.each([['KEYS', '*'], ['SCAN', '0'], ['RANDOMKEY'], ['INFO'], ['PUBLISH', 'news', 'x']])(
    "confines the Read Only token's EVAL_RO to what the token may run directly: %s is refused inside it",
    async (...command) => {
      const script = `return redis.call(${command.map((arg) => `'${arg}'`).join(', ')})`;
      const refused = await postJson(server, '/', ['EVAL_RO', script, '0'], { token: server.readonlyToken });
      expect([refused.status, (refused.json as { error?: string }).error]).toEqual([
        400,
        expect.stringMatching(/^ERR The user executing the script can't run this command or subcommand script: [0-9a-f]{40}, on @user_script:1\.$/),
      ]);
      expect((await postJson(server, '/', ['EVAL_RO', "return redis.call('GET', 'shared')", '0'], { token: server.readonlyToken })).json).toEqual({ result: 'value' });
    },
  );

  it('refuses ACL RESTTOKEN to the Read Only token', async () => {
    const response = await postJson(server, '/', ['ACL', 'RESTTOKEN', 'writer', 's3cret'], { token: server.readonlyToken });
    expect((response.json as { error: string }).error).toMatch(/^NOPERM/);
  });
});
