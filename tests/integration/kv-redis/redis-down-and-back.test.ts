// The redis engine when redis-server goes away: requests fail fast with a clear 400 `{error}`
// (never a hang or a crash), and the server reconnects by itself when redis-server is back.
import { call, useRedisEngineServer } from '../../support/kv-servers';
import { describeWithRedisBinary } from '../../support/installed-program';

describeWithRedisBinary('redis engine with redis-server down and back', () => {
  const context = useRedisEngineServer();

  it('answers a clear error while redis-server is down, then serves again once it is back', async () => {
    expect((await call(context.server, '/set/k/v')).json).toEqual({ result: 'OK' });
    await context.redis.stop();
    const started = Date.now();
    const down = await call(context.server, '/get/k');
    expect(down.status).toBe(400);
    expect((down.json as { error: string }).error).toMatch(/^ERR store unavailable: /);
    const pipeline = await call(context.server, '/pipeline', { method: 'POST', body: '[["PING"]]' });
    expect(pipeline.status).toBe(400);
    expect(Date.now() - started).toBeLessThan(10_000);
    await context.redis.startAgain();
    let answer = await call(context.server, '/ping');
    for (let attempt = 0; attempt < 20 && answer.status !== 200; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      answer = await call(context.server, '/ping');
    }
    expect(answer.json).toEqual({ result: 'PONG' });
  });
});
