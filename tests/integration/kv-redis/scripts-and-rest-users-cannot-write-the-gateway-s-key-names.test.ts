// Trust round 4, finding 1: behind a Redis URL without a password (the default), the daily count's
// key name was derived from the Standard token and the served database alone, so the Standard token's
// holder computed it and a script's `COPY <low count> <that key> DB 15 REPLACE` (Redis's ACL names
// commands, not databases) reset the count: 300 commands passed a daily limit of 100. The engine's
// users, and users created through the REST API, may now write no key named like the gateway's own.
import { startKvRestServer } from '../../../mock';
import { derivedSecret } from '../../../mock/kv-rest/derived-secrets';
import { RedisClient } from '../../fixtures/redis-client';
import { ThrowawayRedisServer } from '../../fixtures/redis-server';
import { postJson, useRedisEngineServer } from '../../support/kv-servers';
import { describeWithRedisBinary } from '../../support/installed-program';

const TOKEN = 'trust-round-4-standard-token';
const DAILY_LIMIT = 100;
const COPY_INTO_PRIVATE_DB = "return redis.call('COPY', KEYS[1], ARGV[1], 'DB', 15, 'REPLACE')";
/** Redis's refusal of a script's command on a key the user may not write. */
const SCRIPT_REFUSED = /^ERR The user executing the script can't access at least one of the keys/;

/** The key the gateway counts today's commands in, as anyone holding the Standard token computes it (database 0, no password). */
function dailyCountKey(): string {
  const name = derivedSecret(`${TOKEN}\0${0}\0`, 'daily count key name', 16).toString('hex');
  return `kv-rest-gateway:daily:${name}:${Math.floor(Date.now() / 86_400_000)}`;
}

describeWithRedisBinary('a script cannot reset the daily count by COPY ... DB into the private database', () => {
  const context = useRedisEngineServer({ token: TOKEN, dailyLimit: DAILY_LIMIT });

  /** Sends INCR until the daily limit refuses one; answers how many passed (at most `tries`). */
  async function commandsAccepted(tries: number): Promise<number> {
    let accepted = 0;
    for (let index = 0; index < tries; index++) {
      if ((await postJson(context.server, '/', ['INCR', 'spent'])).status !== 200) break;
      accepted += 1;
    }
    return accepted;
  }

  it("trust round 4 finding 1: the Standard token's script cannot COPY a low count over the daily key, nor can a user it creates with ~* +@all", async () => {
    expect((await postJson(context.server, '/', ['SET', 'low', '-1000000000'])).json).toEqual({ result: 'OK' });
    const own = await postJson(context.server, '/', ['EVAL', COPY_INTO_PRIVATE_DB, '1', 'low', dailyCountKey()]);
    expect(own.json).toEqual({ error: expect.stringMatching(SCRIPT_REFUSED) });
    expect((await postJson(context.server, '/', ['ACL', 'SETUSER', 'wide', 'on', '>pw', '~*', '&*', '+@all'])).json).toEqual({ result: 'OK' });
    const wide = (await postJson(context.server, '/', ['ACL', 'RESTTOKEN', 'wide', 'pw'])).json as { result: string };
    const created = await postJson(context.server, '/', ['EVAL', COPY_INTO_PRIVATE_DB, '1', 'low', dailyCountKey()], { token: wide.result });
    expect(created.json).toEqual({ error: expect.stringMatching(SCRIPT_REFUSED) });
    // Five commands so far (SET, EVAL, ACL SETUSER, ACL RESTTOKEN, EVAL): the limit still holds at 100.
    expect(await commandsAccepted(3 * DAILY_LIMIT)).toBe(DAILY_LIMIT - 5);
  });
});

describeWithRedisBinary("SORT's BY and GET patterns still answer, its STORE still cannot write a private name", () => {
  const context = useRedisEngineServer();

  it('answers SORT ... BY and GET with patterns for the Standard token and for a user created with ~* (Redis allows them only to users that read every key)', async () => {
    expect((await postJson(context.server, '/', ['RPUSH', 'ids', '2', '1'])).json).toEqual({ result: 2 });
    expect((await postJson(context.server, '/', ['MSET', 'name_1', 'ada', 'name_2', 'bob'])).json).toEqual({ result: 'OK' });
    const sortByName = ['SORT', 'ids', 'BY', 'nosort', 'GET', 'name_*'];
    expect((await postJson(context.server, '/', sortByName)).json).toEqual({ result: ['bob', 'ada'] });
    expect((await postJson(context.server, '/', ['ACL', 'SETUSER', 'wide', 'on', '>pw', '~*', '&*', '+@all'])).json).toEqual({ result: 'OK' });
    const wide = (await postJson(context.server, '/', ['ACL', 'RESTTOKEN', 'wide', 'pw'])).json as { result: string };
    expect((await postJson(context.server, '/', sortByName, { token: wide.result })).json).toEqual({ result: ['bob', 'ada'] });
    const store = await postJson(context.server, '/', [...sortByName, 'STORE', 'kv-rest-gateway:scripts'], { token: wide.result });
    expect(store.json).toEqual({ error: expect.stringMatching(/^NOPERM/) });
  });
});

describeWithRedisBinary('users created through the REST API cannot be given the gateway\'s key names', () => {
  const context = useRedisEngineServer();

  it('trust round 4 finding 1: a user may not be given a key pattern that reaches the gateway\'s own key names', async () => {
    for (const rule of ['~kv-rest-gateway:*', '%W~kv*', '%RW~k?-rest*']) {
      const response = await postJson(context.server, '/', ['ACL', 'SETUSER', 'narrow', 'on', '>pw', rule, '+@all']);
      expect({ rule, reply: response.json }).toEqual({ rule, reply: { error: expect.stringMatching(/^ERR the key pattern .* could write the REST server's own keys/) } });
    }
    expect((await postJson(context.server, '/', ['ACL', 'SETUSER', 'narrow', 'on', '>pw', '~app:*', '%R~kv*', '+@all'])).json).toEqual({ result: 'OK' });
    for (const again of [['~*'], ['allkeys'], ['%RW~*']]) expect((await postJson(context.server, '/', ['ACL', 'SETUSER', 'narrow', ...again])).json).toEqual({ result: 'OK' });
  });
});

describeWithRedisBinary("an engine takes over the users an older engine left with ~*", () => {
  it('starts on a Redis whose kv-rest-gateway user has ~* (Redis refuses a pattern added after it), and its scripts then cannot COPY into the private database', async () => {
    const redis = await ThrowawayRedisServer.start();
    const admin = await RedisClient.connect(redis.url);
    try {
      expect(await admin.send(['ACL', 'SETUSER', 'kv-rest-gateway', 'on', 'nopass', '~*', '&*', '+@all'])).toBe('OK');
      const server = await startKvRestServer({ engine: 'redis', redisUrl: redis.url });
      try {
        const response = await postJson(server, '/', ['EVAL', COPY_INTO_PRIVATE_DB, '1', 'k', 'kv-rest-gateway:scripts']);
        expect(response.json).toEqual({ error: expect.stringMatching(SCRIPT_REFUSED) });
      } finally {
        await server.close();
      }
    } finally {
      admin.close();
      await redis.remove();
    }
  });
});
