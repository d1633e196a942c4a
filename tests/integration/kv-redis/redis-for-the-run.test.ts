// `npm test` on a machine with redis-server installed runs the redis suites without any set-up (issue 16
// item 12): with REDIS_URL unset, the global setup starts a throwaway server and points REDIS_URL at it.
import { RedisClient } from '../../fixtures/redis-client';
import { startRedisForTheRun, stopRedisForTheRun } from '../../support/redis-for-the-run';
import { describeWithRedisBinary } from '../../support/installed-program';

describeWithRedisBinary('the redis-server of the test run', () => {
  const given = process.env.REDIS_URL;
  afterEach(async () => {
    await stopRedisForTheRun();
    if (given === undefined) delete process.env.REDIS_URL;
    else process.env.REDIS_URL = given;
  });

  it('item 12: is started when REDIS_URL is unset, and REDIS_URL then reaches it', async () => {
    delete process.env.REDIS_URL;
    await startRedisForTheRun();
    expect(process.env.REDIS_URL).toMatch(/^redis:\/\/127\.0\.0\.1:\d+\/0$/);
    const client = await RedisClient.connect(process.env.REDIS_URL!);
    try {
      expect(await client.send(['PING'])).toBe('PONG');
    } finally {
      client.close();
    }
  });

  it('is not started when REDIS_URL is already set', async () => {
    process.env.REDIS_URL = 'redis://127.0.0.1:1/0';
    await startRedisForTheRun();
    expect(process.env.REDIS_URL).toBe('redis://127.0.0.1:1/0');
  });
});
