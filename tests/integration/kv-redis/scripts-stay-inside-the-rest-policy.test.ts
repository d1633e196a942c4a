// Findings 8 and 9: scripts ran what the REST API refuses, as the Redis URL's user: SELECT read
// another database, SWAPDB swapped them, MIGRATE made redis-server connect to any host, PFSELFTEST,
// SLOWLOG RESET, MEMORY PURGE ran. The redis engine now reaches Redis as a gateway user that Redis
// itself confines to the REST policy, inside scripts too, and users created through the REST API
// get the same refusals.
import { startKvRestServer, type KvRestServer } from '../../../mock';
import { call, postJson, useRedisEngineServer } from '../../support/kv-servers';
import { describeWithRedisBinary } from '../../support/installed-program';

/** Redis 7.0's refusal of a command the script's ACL user may not run. */
const REFUSED = { error: expect.stringMatching(/^ERR The user executing the script can't run this command or subcommand script: [0-9a-f]{40}, on @user_script:1\.$/) };

describeWithRedisBinary('scripts cannot leave the REST policy [redis engine]', () => {
  const context = useRedisEngineServer();

  it("finding 8: a Read Only token's script cannot SELECT another database", async () => {
    const response = await postJson(context.server, '/', ['EVAL_RO', "redis.call('SELECT', '3') return redis.call('GET', 'k')", '0'], { token: context.server.readonlyToken });
    expect(response.json).toEqual(REFUSED);
  });

  it("finding 8: a Standard token's script cannot SWAPDB 0 3", async () => {
    await call(context.server, '/set/stays/here');
    const response = await postJson(context.server, '/', ['EVAL', "return redis.call('SWAPDB', '0', '3')", '0']);
    expect(response.json).toEqual(REFUSED);
    expect((await call(context.server, '/get/stays')).json).toEqual({ result: 'here' });
  });

  it.each([
    [['MIGRATE', '127.0.0.1', '1', 'k', '0', '100']],
    [['RESTORE', 'k2', '0', 'x']],
    [['PFSELFTEST']],
    [['SLOWLOG', 'RESET']],
    [['MEMORY', 'PURGE']],
  ])('finding 9: a script cannot run %j', async (command) => {
    const args = command.map((arg) => `'${arg}'`).join(', ');
    const response = await postJson(context.server, '/', ['EVAL', `return redis.call(${args})`, '0']);
    expect(response.json).toEqual(REFUSED);
  });

  it('finding 9: users created through the REST API get the same refusals, even with +@all', async () => {
    expect((await postJson(context.server, '/', ['ACL', 'SETUSER', 'wide', 'on', '>pw', '~*', '&*', '+@all'])).json).toEqual({ result: 'OK' });
    const token = ((await postJson(context.server, '/', ['ACL', 'RESTTOKEN', 'wide', 'pw'])).json as { result: string }).result;
    expect((await postJson(context.server, '/', ['EVAL', "return redis.call('SET', 'w', '1')", '0'], { token })).json).toEqual({ result: 'OK' });
    expect((await postJson(context.server, '/', ['EVAL', "return redis.call('SELECT', '2')", '0'], { token })).json).toEqual(REFUSED);
  });

  it("finding 9: selectors and the engine's own users are not the REST API's to change", async () => {
    expect((await postJson(context.server, '/', ['ACL', 'SETUSER', 'sel', 'on', '>pw', '(+select ~*)'])).json).toEqual({ error: 'ERR ACL selectors are not available through the REST API' });
    expect((await postJson(context.server, '/', ['ACL', 'SETUSER', 'kv-rest-gateway', '+@all'])).json).toEqual({ error: "ERR the user 'kv-rest-gateway' belongs to the REST server itself and cannot be changed through the REST API" });
    expect((await postJson(context.server, '/', ['ACL', 'SETUSER', 'default', 'off'])).json).toEqual({ error: "ERR the user 'default' belongs to the REST server itself and cannot be changed through the REST API" });
    expect((await call(context.server, '/acl/whoami')).json).toEqual({ result: 'default' });
  });

  it.each([["KEYS", "*"], ["SCAN", "0"], ["RANDOMKEY"], ["INFO"], ["PUBLISH", "news", "x"]])(
    "a Read Only token's EVAL_RO cannot run %s, which the token may not run directly either",
    async (...command) => {
      const args = command.map((arg) => `'${arg}'`).join(', ');
      expect((await postJson(context.server, '/', ['EVAL_RO', `return redis.call(${args})`, '0'], { token: context.server.readonlyToken })).json).toEqual(REFUSED);
    },
  );

  it("a Read Only token's EVAL_RO still reads, and the Standard token's EVAL_RO may run KEYS", async () => {
    await call(context.server, '/set/readable/yes');
    expect((await postJson(context.server, '/', ['EVAL_RO', "return redis.call('GET', KEYS[1])", '1', 'readable'], { token: context.server.readonlyToken })).json).toEqual({ result: 'yes' });
    expect((await postJson(context.server, '/', ['EVAL_RO', "return #redis.call('KEYS', 'readable')", '0'])).json).toEqual({ result: 1 });
    expect((await call(context.server, '/acl/whoami')).json).toEqual({ result: 'default' });
  });
});

describeWithRedisBinary('the REST API stays inside its own database of a shared Redis [redis engine]', () => {
  const context = useRedisEngineServer();
  let neighbour: KvRestServer;
  beforeAll(async () => {
    neighbour = await startKvRestServer({ engine: 'redis', redisUrl: context.redis.url.replace(/\/0$/, '/5') });
  });
  afterAll(() => neighbour?.close());

  it("finding 8: FLUSHALL empties the server's own database only, and scripts may not run it", async () => {
    await call(neighbour, '/set/neighbours/key');
    await call(context.server, '/set/mine/key');
    expect((await call(context.server, '/flushall')).json).toEqual({ result: 'OK' });
    expect([(await call(context.server, '/dbsize')).json, (await call(neighbour, '/dbsize')).json]).toEqual([{ result: 0 }, { result: 1 }]);
    expect((await postJson(context.server, '/', ['EVAL', "return redis.call('FLUSHALL')", '0'])).json).toEqual(REFUSED);
    expect((await call(neighbour, '/get/neighbours')).json).toEqual({ result: 'key' });
  });

  it('finding 8: COPY into another database is refused', async () => {
    await call(context.server, '/set/source/v');
    expect((await call(context.server, '/copy/source/target/DB/5')).json).toEqual({ error: 'ERR DB index is out of range' });
    expect((await call(context.server, '/copy/source/target/DB/0')).json).toEqual({ result: 1 });
    expect((await call(neighbour, '/exists/target')).json).toEqual({ result: 0 });
  });
});
