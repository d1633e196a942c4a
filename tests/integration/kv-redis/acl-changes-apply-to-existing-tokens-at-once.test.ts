// Finding 13 (redis engine): an ACL user's token kept its rights after `ACL SETUSER u off` (or a new
// password), because its connection had authenticated before and Redis keeps a connection's rights.
// The engine now authenticates again before each use of the user's connection.
import { call, postJson, useRedisEngineServer } from '../../support/kv-servers';
import { describeWithRedisBinary } from '../../support/installed-program';

describeWithRedisBinary('ACL changes apply to existing tokens at once [redis engine]', () => {
  const context = useRedisEngineServer();

  const mint = async (user: string, password: string): Promise<string> => {
    await postJson(context.server, '/', ['ACL', 'SETUSER', user, 'on', `>${password}`, '~*', '&*', '+@all']);
    return ((await postJson(context.server, '/', ['ACL', 'RESTTOKEN', user, password])).json as { result: string }).result;
  };

  it.each([
    ['off', ['off']],
    ['a new password', ['resetpass', '>other']],
  ])('finding 13: a token stops writing as soon as its user gets %s', async (_, rules) => {
    const user = `u${rules.length}${rules[0]}`;
    const token = await mint(user, 'pw');
    expect((await call(context.server, '/set/before/1', { token })).json).toEqual({ result: 'OK' });
    expect((await postJson(context.server, '/', ['ACL', 'SETUSER', user, ...rules])).json).toEqual({ result: 'OK' });
    expect(await call(context.server, '/set/after/1', { token })).toMatchObject({ status: 400, json: { error: 'WRONGPASS invalid username-password pair or user is disabled.' } });
    expect((await call(context.server, '/exists/after')).json).toEqual({ result: 0 });
  });

  it('finding 13: a token works again when its user is enabled again with the same password', async () => {
    const token = await mint('again', 'pw');
    await postJson(context.server, '/', ['ACL', 'SETUSER', 'again', 'off']);
    expect((await call(context.server, '/ping', { token })).status).toBe(400);
    await postJson(context.server, '/', ['ACL', 'SETUSER', 'again', 'on']);
    expect((await call(context.server, '/ping', { token })).json).toEqual({ result: 'PONG' });
  });
});
