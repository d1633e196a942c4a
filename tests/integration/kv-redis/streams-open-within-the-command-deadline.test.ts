// Finding 17: with redis-server hung (SIGSTOP), commands failed within the time limit but /subscribe
// and /monitor waited as long as Redis did. Opening a stream now has the same deadline as a command.
import { call, useRedisEngineServer } from '../../support/kv-servers';
import { describeWithRedisBinary } from '../../support/installed-program';

describeWithRedisBinary('opening a stream has the command deadline [redis engine]', () => {
  const context = useRedisEngineServer({ redisTimeoutMs: 300 });
  beforeAll(async () => {
    // The engine's gateway user exists before Redis hangs, as on a server that has served already.
    expect((await call(context.server, '/ping')).json).toEqual({ result: 'PONG' });
  });

  it.each(['/subscribe/news', '/monitor'])('finding 17: POST %s answers a 400 within 1 s while redis-server is hung', async (path) => {
    context.redis.pause();
    try {
      const started = Date.now();
      const response = await call(context.server, path, { method: 'POST', headers: { accept: 'text/event-stream' }, signal: AbortSignal.timeout(5000) });
      expect(response.status).toBe(400);
      expect(response.json).toEqual({ error: expect.stringMatching(/^ERR store unavailable: redis-server did not answer within 300 ms/) });
      expect(Date.now() - started).toBeLessThan(1000);
    } finally {
      context.redis.resume();
    }
  });
});
