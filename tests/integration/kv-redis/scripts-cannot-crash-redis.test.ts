// Finding 6: a script whose error value is a table without a string `err` (`error({})`) makes
// Redis 7.0.15 dereference NULL and die, taking its data along. Through the redis engine the Read
// Only token's EVAL_RO of such scripts answers an error and redis-server keeps serving.
import { call, postJson, useRedisEngineServer } from '../../support/kv-servers';
import { describeWithRedisBinary } from '../../support/installed-program';

const CRASHING_SCRIPTS = ['error({})', 'error({1})', 'error({err={}})', "local t = setmetatable({}, {__index = function() error({}) end}) return t.x", "redis.pcall('GET', 'k') error({})"];

describeWithRedisBinary('scripts that crash Redis 7.0 never reach it unguarded [redis engine]', () => {
  const context = useRedisEngineServer();

  it.each(CRASHING_SCRIPTS)('finding 6: EVAL_RO %s with the Read Only token answers an error and Redis keeps its data', async (script) => {
    await call(context.server, '/set/kept/1');
    const response = await postJson(context.server, '/', ['EVAL_RO', script, '0'], { token: context.server.readonlyToken });
    expect(response.status).toBe(400);
    expect(response.json).toEqual({ error: expect.stringMatching(/^ERR the script raised an error value that is not a string script: [0-9a-f]{40}, on @user_script:1\.$/) });
    expect((await call(context.server, '/get/kept')).json).toEqual({ result: '1' });
  });

  it('finding 6: EVALSHA of a loaded crashing script answers an error too', async () => {
    const sha = ((await postJson(context.server, '/', ['SCRIPT', 'LOAD', '#!lua flags=no-writes\nerror({})'])).json as { result: string }).result;
    const response = await postJson(context.server, '/', ['EVALSHA_RO', sha, '0'], { token: context.server.readonlyToken });
    expect(response.json).toEqual({ error: `ERR the script raised an error value that is not a string script: ${sha}, on @user_script:2.` });
    expect((await call(context.server, '/ping')).json).toEqual({ result: 'PONG' });
  });

  it.each([
    ["error('boom')", (sha: string) => `ERR user_script:1: boom script: ${sha}, on @user_script:1.`],
    ["local x = 1\nerror('two')", (sha: string) => `ERR user_script:2: two script: ${sha}, on @user_script:2.`],
    ["return redis.call('nosuch')", (sha: string) => `ERR Unknown Redis command called from script script: ${sha}, on @user_script:1.`],
    ['return (', () => "ERR Error compiling script (new function): user_script:1: unexpected symbol near '<eof>'"],
    ["return redis.error_reply('MY failure')", () => 'MY failure'],
    ['end) error({}) local y = (function()', () => "ERR Error compiling script (new function): user_script:1: '<eof>' expected near 'end'"],
  ])('guarded scripts keep Redis 7.0\'s own error text for %s, with the SHA of the text as sent', async (script, expected) => {
    const sha = ((await postJson(context.server, '/', ['SCRIPT', 'LOAD', script])).json as { result: string }).result;
    expect((await postJson(context.server, '/', ['EVAL', script, '0'])).json).toEqual({ error: expected(sha) });
  });

  it('guarded scripts return what the script returns, long brackets in the text included', async () => {
    expect((await postJson(context.server, '/', ['EVAL', "return {']]', [==[a]=]b]==], KEYS[1], ARGV[1]}", '1', 'k', 'v'])).json).toEqual({ result: [']]', 'a]=]b', 'k', 'v'] });
  });

  it('refuses a shebang flag no Redis version knows, as Redis does, and drops only the newer versions\' allow-key-locking', async () => {
    expect((await postJson(context.server, '/', ['EVAL', '#!lua flags=no-such-flag\nreturn 1', '0'])).json).toEqual({ error: 'ERR Unexpected flag in script shebang: no-such-flag' });
    expect((await postJson(context.server, '/', ['EVAL', '#!lua flags=allow-key-locking,no-writes\nreturn 1', '0'])).json).toEqual({ result: 1 });
  });
});
