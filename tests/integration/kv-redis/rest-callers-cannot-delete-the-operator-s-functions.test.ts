// Trust round 5, finding 5: on the redis engine no REST caller can load a Redis function library
// (FUNCTION LOAD is refused: a library runs outside the script guard), so every library on that
// Redis is its operator's or another application's. FUNCTION DELETE and FUNCTION FLUSH were still
// served: the Standard token deleted them all, in every database (libraries are server-wide), where
// its FLUSHALL is kept to its own database. Both are now refused by the redis engine, as FUNCTION
// LOAD is, and FUNCTION KILL (the review: it stops the operator's function while it runs);
// FCALL, FCALL_RO, FUNCTION LIST and STATS stay served.
import { Redis } from '@upstash/redis';
import { RedisClient } from '../../fixtures/redis-client';
import { postJson, useRedisEngineServer } from '../../support/kv-servers';
import { describeWithRedisBinary } from '../../support/installed-program';

const LIBRARY = "#!lua name=operators\nredis.register_function('ping2', function() return 'pong' end)";

describeWithRedisBinary("the Standard token cannot delete the operator's function libraries [redis engine]", () => {
  const context = useRedisEngineServer();
  beforeAll(async () => {
    const operator = await RedisClient.connect(context.redis.url);
    try {
      expect(await operator.send(['FUNCTION', 'LOAD', LIBRARY])).toBe('operators');
    } finally {
      operator.close();
    }
  });

  it.each([
    [['FUNCTION', 'FLUSH']],
    [['FUNCTION', 'DELETE', 'operators']],
    [['FUNCTION', 'KILL']],
  ])('trust round 5 finding 5: %j is refused and the library still answers', async (command) => {
    expect((await postJson(context.server, '/', command)).json).toEqual({ error: expect.stringMatching(/^ERR Command is not available: 'FUNCTION' \(libraries on a redis-server are its operator's/) });
    const redis = new Redis({ url: context.server.url, token: context.server.token, retry: false });
    expect(await redis.functions.call('ping2')).toBe('pong');
  });
});
