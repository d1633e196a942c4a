// Trust round 4, finding 5: the Standard token could change or delete any ACL user of the Redis but
// the engine's own and the URL's: on a Redis shared with another application, `ACL SETUSER otherapp
// resetpass >mine` took that application's user over (and `ACL RESTTOKEN otherapp mine` minted a
// token for it), and `ACL DELUSER otherapp` locked the application out. The REST API now changes and
// deletes only users it created (recorded in the engine's private database), and creates new ones.
import { startKvRestServer } from '../../../mock';
import { postJson, useRedisEngineServer } from '../../support/kv-servers';
import { RedisClient } from '../../fixtures/redis-client';
import { ThrowawayRedisServer } from '../../fixtures/redis-server';
import { describeWithRedisBinary } from '../../support/installed-program';

const NOT_OURS = { error: "ERR the user 'otherapp' was not created through the REST API and cannot be changed through it" };

describeWithRedisBinary("the REST API changes and deletes only the ACL users it created", () => {
  const context = useRedisEngineServer();
  let admin: RedisClient;
  beforeAll(async () => {
    admin = await RedisClient.connect(context.redis.url);
    expect(await admin.send(['ACL', 'SETUSER', 'otherapp', 'on', '>otherpw', '~app2:*', '+@all'])).toBe('OK');
  });
  afterAll(() => admin.close());

  it("trust round 4 finding 5: another application's user can be neither taken over nor deleted, in a pipeline or a transaction either", async () => {
    expect((await postJson(context.server, '/', ['ACL', 'SETUSER', 'otherapp', 'resetpass', '>mine'])).json).toEqual(NOT_OURS);
    expect((await postJson(context.server, '/', ['ACL', 'DELUSER', 'otherapp'])).json).toEqual(NOT_OURS);
    expect((await postJson(context.server, '/pipeline', [['ACL', 'DELUSER', 'nobody', 'otherapp'], ['PING']])).json).toEqual([NOT_OURS, { result: 'PONG' }]);
    expect((await postJson(context.server, '/multi-exec', [['ACL', 'SETUSER', 'otherapp', 'off']])).json).toEqual(NOT_OURS);
    expect(await admin.send(['AUTH', 'otherapp', 'otherpw'])).toBe('OK');
  });

  it('trust round 4 finding 5: a user the REST API created stays its own to change and delete, and once deleted another may be made under its name', async () => {
    expect((await postJson(context.server, '/', ['ACL', 'SETUSER', 'ours', 'on', '>pw', '~*', '+@all'])).json).toEqual({ result: 'OK' });
    expect((await postJson(context.server, '/', ['ACL', 'SETUSER', 'ours', 'resetpass', '>pw2'])).json).toEqual({ result: 'OK' });
    expect((await postJson(context.server, '/', ['ACL', 'DELUSER', 'ours'])).json).toEqual({ result: 1 });
    expect((await postJson(context.server, '/', ['ACL', 'SETUSER', 'ours', 'on', '>pw3'])).json).toEqual({ result: 'OK' });
  });
});

describeWithRedisBinary("a url's user that may not read Redis's users changes none of them", () => {
  it('refuses to change another application\'s user when ACL GETUSER is refused, instead of reading the refusal as "no such user"', async () => {
    const redis = await ThrowawayRedisServer.start();
    const admin = await RedisClient.connect(redis.url);
    try {
      expect(await admin.send(['ACL', 'SETUSER', 'operator', 'on', '>oppw', '~*', '&*', '+@all', '-acl|getuser'])).toBe('OK');
      expect(await admin.send(['ACL', 'SETUSER', 'otherapp', 'on', '>otherpw', '~app2:*', '+@all'])).toBe('OK');
      const url = new URL(redis.url);
      url.username = 'operator';
      url.password = 'oppw';
      const server = await startKvRestServer({ engine: 'redis', redisUrl: url.toString() });
      try {
        const takeover = await postJson(server, '/', ['ACL', 'SETUSER', 'otherapp', 'resetpass', '>mine']);
        expect([takeover.status >= 400, takeover.json]).toEqual([true, { error: expect.stringContaining('NOPERM') }]);
        expect(await admin.send(['AUTH', 'otherapp', 'otherpw'])).toBe('OK');
      } finally {
        await server.close();
      }
    } finally {
      admin.close();
      await redis.remove();
    }
  });
});
