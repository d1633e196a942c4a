// Trust round 5, finding 1: the guard that keeps `error({})` from Redis 7.0 (finding 6) sent a text
// unchanged when its own reading of the `#!lua` line refused it, so that Redis would refuse it too.
// But Redis reads that line with sdssplitargs, which takes quotes: `#!lua "flags=no-writes"`,
// `#!"lua"` and `#!lua flags="no-writes"` are shebangs Redis runs, and the guard passed them through
// unwrapped. The Read Only token's EVAL_RO of `#!lua "flags=no-writes"\nerror({})` killed Debian's
// redis-server 7.0.15. Every text that starts with `#!` and has a line after it is now guarded, the
// first line left for Redis to judge.
import { call, postJson, useRedisEngineServer } from '../../support/kv-servers';
import { describeWithRedisBinary } from '../../support/installed-program';

const QUOTED_SHEBANGS = ['#!lua "flags=no-writes"', '#!"lua" flags=no-writes', '#!lua flags="no-writes"', "#!lua 'flags=no-writes'"];

describeWithRedisBinary('a shebang Redis reads with quotes still runs its script guarded [redis engine]', () => {
  const context = useRedisEngineServer();

  it.each(QUOTED_SHEBANGS)('trust round 5 finding 1: EVAL_RO of error({}) under %s answers an error and Redis keeps its data', async (shebang) => {
    await call(context.server, '/set/kept/1');
    const response = await postJson(context.server, '/', ['EVAL_RO', `${shebang}\nerror({})`, '0'], { token: context.server.readonlyToken });
    expect(response.json).toEqual({ error: expect.stringMatching(/^ERR the script raised an error value that is not a string script: [0-9a-f]{40}, on @user_script:2\.$/) });
    expect((await call(context.server, '/get/kept')).json).toEqual({ result: '1' });
  });

  it('trust round 5 finding 1: a quoted shebang\'s script returns what it returns, its flags applied by Redis', async () => {
    expect((await postJson(context.server, '/', ['EVAL', '#!lua "flags=no-writes"\nreturn ARGV[1]', '0', 'x'])).json).toEqual({ result: 'x' });
    expect((await postJson(context.server, '/', ['EVAL', "#!lua \"flags=no-writes\"\nreturn redis.call('SET', 'k', 'v')", '0'])).json).toEqual({
      error: expect.stringMatching(/^ERR Write commands are not allowed from read-only scripts/),
    });
  });
});
