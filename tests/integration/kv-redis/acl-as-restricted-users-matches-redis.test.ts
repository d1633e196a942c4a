// Property-based differential test of the ACL: random restricted users (key patterns with ~, %R~ and
// %W~, categories and commands allowed and taken away) run random key-taking commands on the memory
// engine and on a redis-server 7.0 of the test's own, and both allow or refuse alike, refusals with
// the same NOPERM text. Keys come from `mine*` (the user's), `pub*` (read-only), `out*` (write-only)
// and `secret`, through numkeys (valid, zero, negative, atoi-style), keywords and plain positions.
import fc from 'fast-check';
import type { Caller } from '../../../mock/kv-rest/engine';
import { engineUnderTest, type EngineUnderTest } from '../../unit/kv-memory/memory-engine-harness';
import { plain, type Plain } from '../../fixtures/plain-replies';
import { RedisClient } from '../../fixtures/redis-client';
import { ThrowawayRedisServer } from '../../fixtures/redis-server';
import { describeWithRedisBinary } from '../../support/installed-program';
import { executeAsSent } from '../../support/engine-commands';

const key = fc.constantFrom('mine1', 'mine2', 'pub1', 'out1', 'secret');
const numkeys = fc.constantFrom('1', '2', '0', '-1', '01', '1x', '9');
const c = (name: string, ...args: fc.Arbitrary<string>[]) => fc.tuple(fc.constant(name), ...args).map((parts) => [...parts]);
const subcommand = (container: string, sub: string, ...args: fc.Arbitrary<string>[]) => c(container, fc.constant(sub), ...args);

/** Commands that name their keys every way Redis's key specs can: index, range, step, numkeys. */
const command: fc.Arbitrary<string[]> = fc.oneof(
  c('GET', key), c('SET', key, key), c('SET', key, key, fc.constantFrom('GET', 'NX', 'get')), c('MGET', key, key), c('MSET', key, key, key, key),
  c('EXISTS', key, key), c('TYPE', key), c('DEL', key), c('COPY', key, key), c('RENAME', key, key), c('GETDEL', key), c('STRLEN', key),
  c('HSET', key, key, key), c('HGETALL', key), c('LMOVE', key, key, fc.constant('LEFT'), fc.constant('RIGHT')), c('RPOPLPUSH', key, key),
  c('SMOVE', key, key, key), c('SINTERSTORE', key, key, key), c('SINTERCARD', numkeys, key, key), c('SUNION', key, key),
  c('ZUNION', numkeys, key, key), c('ZINTER', numkeys, key), c('ZDIFF', numkeys, key, key), c('ZINTERCARD', numkeys, key),
  c('ZUNIONSTORE', key, numkeys, key, key), c('ZDIFFSTORE', key, numkeys, key), c('ZRANGESTORE', key, key, fc.constant('0'), fc.constant('-1')),
  c('BITOP', fc.constant('AND'), key, key, key), c('PFCOUNT', key, key), c('PFMERGE', key, key), c('EXPIRE', key, fc.constant('100')), c('TTL', key),
  c('EVAL', fc.constant('return 1'), numkeys, key, key), c('EVAL_RO', fc.constant('return 1'), numkeys, key),
  c('EVAL', fc.constantFrom("return redis.call('GET', KEYS[1])", "return redis.pcall('SET', KEYS[1], 'v')", "return redis.call('DEL', 'secret')", "return redis.pcall('PUBLISH', 'pub1', 'x')"), fc.constant('1'), key),
  c('EVALSHA', fc.constant('e0e1f9fabfc9d4800c877a703b823ac0578ff8db'), numkeys, key), c('PING'), c('DBSIZE'),
  // The families Redis 7.0 finds keys for by keyword and numkeys: streams, geo, LMPOP/ZMPOP, SORT.
  c('XADD', key, fc.constant('*'), key, key), c('XREAD', fc.constant('STREAMS'), key, fc.constant('0')), c('XREAD', fc.constant('COUNT'), fc.constant('1'), fc.constant('STREAMS'), key, key, fc.constant('0'), fc.constant('0')),
  c('GEOADD', key, fc.constant('1'), fc.constant('2'), key), c('GEORADIUS', key, fc.constant('0'), fc.constant('0'), fc.constant('1'), fc.constant('km'), fc.constantFrom('STORE', 'STOREDIST'), key),
  c('GEOSEARCHSTORE', key, key, fc.constant('FROMLONLAT'), fc.constant('0'), fc.constant('0'), fc.constant('BYRADIUS'), fc.constant('1'), fc.constant('km')),
  c('LMPOP', numkeys, key, key, fc.constant('LEFT')), c('ZMPOP', numkeys, key, fc.constant('MIN')), c('SORT', key, fc.constant('STORE'), key), c('SORT', key, fc.constant('BY'), fc.constantFrom('x*', 'nosort')), c('SORT_RO', key),
  subcommand('SCRIPT', 'EXISTS', fc.constant('abc')), subcommand('SCRIPT', 'FLUSH'), c('FLUSHDB'), c('KEYS', key), c('PUBLISH', key, key),
);

const CATEGORIES = ['read', 'write', 'keyspace', 'string', 'hash', 'list', 'set', 'sortedset', 'bitmap', 'hyperloglog', 'scripting', 'fast', 'slow', 'dangerous', 'admin', 'pubsub', 'connection', 'geo', 'stream', 'blocking', 'transaction', 'nosuch'];
const NAMES = ['xread', 'xadd', 'georadius', 'lmpop', 'sort', 'get', 'set', 'zunion', 'zunionstore', 'eval', 'eval_ro', 'evalsha', 'script', 'script|exists', 'script|flush', 'flushdb', 'keys', 'copy', 'mset'];

/** Some rules are refused (a pattern after `~*`, `%RR~`): SETUSER must then answer the same error. */
const keyRules = fc.array(fc.constantFrom('~mine*', '%R~pub*', '%W~out*', '%wr~mine2', '~*', '%R~*', 'allkeys', 'resetkeys', '%RR~x', '%~x', '%R'), { maxLength: 3 });
const commandRule = fc.oneof(
  fc.tuple(fc.constantFrom('+', '-'), fc.constantFrom(...CATEGORIES)).map(([sign, category]) => `${sign}@${category}`),
  fc.tuple(fc.constantFrom('+', '-'), fc.constantFrom(...NAMES)).map(([sign, name]) => `${sign}${name}`),
  fc.constantFrom('+@all', '-@all'),
);
const user = fc.record({ keys: keyRules, commands: fc.array(commandRule, { minLength: 1, maxLength: 4 }) });

/** A refusal's text: NOPERM to a client, "The user executing the script ..." to a script (raised or returned by pcall), SORT's BY and GET denials. */
const REFUSAL = /NOPERM|The user executing the script|denied due to insufficient ACL permissions/;

/** Only the ACL's verdict counts here: a refusal with its text, or allowed (whatever the command then answered). */
function verdict(reply: Plain): Plain {
  return reply !== null && typeof reply === 'object' && 'error' in reply && REFUSAL.test(reply.error) ? reply : 'allowed';
}

describeWithRedisBinary('ACL as restricted users: the memory engine allows and refuses what redis-server does', () => {
  let server: ThrowawayRedisServer;
  let admin: RedisClient;
  let asUser: RedisClient;
  let memory: EngineUnderTest;
  const caller: Caller = { user: 'restricted', address: '127.0.0.1:40000' };
  const runOnMemoryAsUser = async (args: string[]) => plain((await executeAsSent(memory.engine, [args], { transaction: false, caller }))[0]);

  beforeAll(async () => {
    server = await ThrowawayRedisServer.start();
    admin = await RedisClient.connect(server.url);
    asUser = await RedisClient.connect(server.url);
    memory = engineUnderTest();
    // The user exists from the start, so a refused SETUSER leaves it as it was on both sides.
    expect(await admin.send(['ACL', 'SETUSER', 'restricted', 'on', 'nopass'])).toBe('OK');
    expect(await memory.run('ACL', 'SETUSER', 'restricted', 'on', 'nopass')).toBe('OK');
  });
  afterAll(async () => {
    admin.close();
    asUser.close();
    await memory.engine.close();
    await server.remove();
  });

  it('gives every random user the same verdict on every random command, NOPERM texts included', async () => {
    await fc.assert(
      fc.asyncProperty(user, fc.array(command, { minLength: 1, maxLength: 6 }), async ({ keys, commands }, runs) => {
        const rules = ['reset', 'on', 'nopass', ...keys, ...commands];
        const created = await admin.send(['ACL', 'SETUSER', 'restricted', ...rules]);
        expect(await memory.run('ACL', 'SETUSER', 'restricted', ...rules)).toEqual(created);
        expect(await asUser.send(['AUTH', 'restricted', 'any'])).toBe('OK');
        for (const args of runs) {
          const expected = verdict(await asUser.send(args));
          expect({ user: rules, command: args, verdict: verdict(await runOnMemoryAsUser(args)) }).toEqual({ user: rules, command: args, verdict: expected });
        }
      }),
      { numRuns: 300 },
    );
  });
});
