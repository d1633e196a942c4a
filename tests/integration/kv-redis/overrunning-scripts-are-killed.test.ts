// Finding 7: `EVAL_RO "while true do end" 0` held redis-server: after its busy threshold every
// request got BUSY, and SCRIPT KILL is not the REST API's to send. The redis engine now sends
// SCRIPT KILL itself when a script overruns its time limit, so the store answers again by itself.
import { parseRedisUrl, RedisConnection } from '../../../mock/kv-rest/redis/connection';
import { call, postJson, useRedisEngineServer } from '../../support/kv-servers';
import { describeWithRedisBinary } from '../../support/installed-program';

describeWithRedisBinary('an endless read-only script does not wedge the store [redis engine]', () => {
  // Redis takes other clients' commands (SCRIPT KILL included) once a script has run 300 ms.
  const context = useRedisEngineServer({ redisTimeoutMs: 500 }, ['--busy-reply-threshold', '300']);

  it('finding 7: after EVAL_RO "while true do end" with the Read Only token, the store answers again within 3 s', async () => {
    await call(context.server, '/set/kept/1');
    const started = Date.now();
    const endless = await postJson(context.server, '/', ['EVAL_RO', 'while true do end', '0'], { token: context.server.readonlyToken });
    expect(endless.status).toBe(400);
    expect(endless.json).toEqual({ error: 'ERR store unavailable: redis-server did not answer within 500 ms (a command already sent may still have run)' });
    let answer = await call(context.server, '/get/kept');
    while (answer.status !== 200 && Date.now() - started < 3000) answer = await call(context.server, '/get/kept');
    expect(answer.json).toEqual({ result: '1' });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('finding 7: a BUSY reply from a script started elsewhere makes the engine kill it too', async () => {
    const outsider = await RedisConnection.open(parseRedisUrl(context.redis.url), 10_000);
    const running = outsider.send([['EVAL', 'while true do end', '0']]);
    await new Promise((resolve) => setTimeout(resolve, 400));
    const started = Date.now();
    let answer = await call(context.server, '/ping');
    while (answer.status !== 200 && Date.now() - started < 3000) answer = await call(context.server, '/ping');
    expect(answer.json).toEqual({ result: 'PONG' });
    expect((await running)[0]).toEqual({ kind: 'error', message: expect.stringMatching(/^ERR Script killed by user with SCRIPT KILL/) });
    outsider.close();
  });
});
