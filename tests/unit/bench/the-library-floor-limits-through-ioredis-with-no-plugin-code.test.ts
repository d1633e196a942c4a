// Issue 36 (the target "over redis:// total CPU per decision <= 0.75x the peer's"): `npm run
// bench:instructions` counts a row of the mandated libraries alone, @upstash/ratelimit's sliding
// window through @upstash/redis on the least Requester over ioredis, in the peer's middleware shape,
// beside the peer and the plugin over redis://. These tests prove that the row's Requester carries
// each command as @upstash/redis sends it and its reply or error back, and that the row decides for
// real on a redis-server (its count would not be a decision's otherwise).
import Redis from 'ioredis';
import Koa from 'koa';
import supertest from 'supertest';
import { scriptSha } from '../../../shared/script-shebang';
import { ioredisRequester, upstashRatelimitOnIoredis } from '../../../bench/upstash-ratelimit-on-ioredis';
import { describeWithRedisOfTheRun } from '../../support/installed-program';

describe("the library floor's Requester", () => {
  it('sends the command array as ioredis call arguments and answers the reply as { result }', async () => {
    const sent: unknown[][] = [];
    const requester = ioredisRequester({ call: async (...args: unknown[]) => (sent.push(args), 7) } as never);
    expect([await requester.request({ body: ['evalsha', 'abc', 1, 'key', '60000'] }), sent]).toEqual([{ result: 7 }, [['evalsha', 'abc', 1, 'key', '60000']]]);
  });

  it('sends a script without the allow-key-locking flag Redis 7.0 refuses, and names it by the SHA Redis runs it under from then on', async () => {
    const sent: unknown[][] = [];
    const requester = ioredisRequester({ call: async (...args: unknown[]) => (sent.push(args), 1) } as never);
    const script = '#!lua flags=allow-key-locking\nreturn 1';
    await requester.request({ body: ['eval', script, 0] });
    await requester.request({ body: ['evalsha', scriptSha(script), 0] });
    expect(sent).toEqual([
      ['eval', '#!lua\nreturn 1', 0],
      ['evalsha', scriptSha('#!lua\nreturn 1'), 0],
    ]);
  });

  it("rejects with the server's error, which the library's NOSCRIPT fallback reads", async () => {
    const requester = ioredisRequester({ call: async () => Promise.reject(new Error('NOSCRIPT No matching script')) } as never);
    await expect(requester.request({ body: ['evalsha', 'abc', 0] })).rejects.toThrow('NOSCRIPT No matching script');
  });
});

describeWithRedisOfTheRun('the library floor on a redis-server', () => {
  it('limits each caller by its header through the sliding window, loading the script on first use', async () => {
    const connection = new Redis(process.env.REDIS_URL!);
    try {
      const app = new Koa();
      app.use(upstashRatelimitOnIoredis(connection, { limit: 2, window: '1 m', prefix: `floor-test-${process.pid}-${Date.now()}`, callerHeader: 'x-caller' }));
      app.use((ctx) => void (ctx.body = { ok: true }));
      const request = supertest(app.callback());
      const statuses: number[] = [];
      for (const caller of ['a', 'a', 'a', 'b']) statuses.push((await request.get('/').set('x-caller', caller)).status);
      expect(statuses).toEqual([200, 200, 429, 200]);
    } finally {
      await connection.quit();
    }
  });
});
