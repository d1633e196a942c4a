// Trust round 4, finding 6: ACL RESTTOKEN minted a token for any user whose password the Standard
// token's holder gave, the Redis URL's own user included. Behind `redis://admin@host/0` (a user
// without a password, as on a development Redis) `ACL RESTTOKEN admin anything` minted an admin token,
// whose scripts left the gateway's confinement: `redis.call('SELECT', 15)` read the private database.
// Tokens are now minted only for users created through the REST API, and a token standing for one of
// the engine's own users is refused at use.
import { startKvRestServer, type KvRestServer } from '../../../mock';
import { TokenRegistry } from '../../../mock/kv-rest/http/tokens';
import { postJson } from '../../support/kv-servers';
import { RedisClient } from '../../fixtures/redis-client';
import { ThrowawayRedisServer } from '../../fixtures/redis-server';
import { describeWithRedisBinary } from '../../support/installed-program';

describeWithRedisBinary('tokens are minted only for users created through the REST API', () => {
  let redis: ThrowawayRedisServer;
  let server: KvRestServer;
  beforeAll(async () => {
    redis = await ThrowawayRedisServer.start();
    const admin = await RedisClient.connect(redis.url);
    expect(await admin.send(['ACL', 'SETUSER', 'admin', 'on', 'nopass', '~*', '&*', '+@all'])).toBe('OK');
    expect(await admin.send(['ACL', 'SETUSER', 'otherapp', 'on', '>otherpw', '~app2:*', '+@all'])).toBe('OK');
    admin.close();
    server = await startKvRestServer({ engine: 'redis', redisUrl: redis.url.replace('redis://', 'redis://admin@') });
  });
  afterAll(async () => {
    await server?.close();
    await redis?.remove();
  });

  it.each([
    ['admin', 'anything'],
    ['otherapp', 'otherpw'],
  ])("trust round 4 finding 6: ACL RESTTOKEN %s is refused as a wrong password", async (user, password) => {
    expect((await postJson(server, '/', ['ACL', 'RESTTOKEN', user, password])).json).toEqual({ error: `ERR Wrong password or user "${user}" does not exist` });
  });

  it("trust round 4 finding 6: a token for the URL's user minted before this fix is refused at use", async () => {
    const earlier = new TokenRegistry(server.token, server.readonlyToken).mintForUser('admin', 'anything');
    expect((await postJson(server, '/', ['EVAL', "return redis.call('SELECT', 15)", '0'], { token: earlier })).json).toEqual({
      error: "NOPERM the user 'admin' belongs to the REST server itself and has no REST token",
    });
  });

  it('trust round 4 finding 6: a user created through the REST API still gets its token', async () => {
    expect((await postJson(server, '/', ['ACL', 'SETUSER', 'ours', 'on', '>pw', '~*', '+@all'])).json).toEqual({ result: 'OK' });
    const minted = (await postJson(server, '/', ['ACL', 'RESTTOKEN', 'ours', 'pw'])).json as { result: string };
    expect((await postJson(server, '/', ['EVAL', "return redis.call('SELECT', 15)", '0'], { token: minted.result })).json).toEqual({
      error: expect.stringMatching(/^ERR The user executing the script can't run this command or subcommand/),
    });
  });
});
