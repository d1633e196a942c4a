// Issue 25 finding 5: a library that kept `local R = redis` could call R.register_function from a
// running function, even from FCALL_RO with the Read Only token ("registered", and each callback
// stayed referenced in the Lua registry). Redis 7.0.15 refuses it: register_function works only
// while FUNCTION LOAD runs the library's code. The same library and calls go to a redis-server of the
// suite's own and to the memory engine's HTTP server (functions called with the Read Only token), and
// every reply must be the same, error texts included.
import type { KvRestServer } from '../../../mock';
import { postJson, startServer } from '../../support/kv-servers';
import { describeWithRedisBinary } from '../../support/installed-program';
import type { Plain } from '../../fixtures/plain-replies';
import { useOwnRedisClient } from '../../support/redis-client';

const KEEPER = [
  '#!lua name=keeper',
  'local R = redis',
  "R.register_function{function_name='late', flags={'no-writes'}, callback=function()",
  "  R.register_function('sneak', function() return 'sneaked' end)",
  "  return 'registered'",
  'end}',
  "R.register_function{function_name='caught', flags={'no-writes'}, callback=function()",
  "  local ok, failure = pcall(R.register_function, 'sneak', function() return 'sneaked' end)",
  // Redis 7.0.15's pcall gives the text, the memory engine's the {err=...} table of every raised error.
  "  return {tostring(ok), type(failure) == 'table' and failure.err or failure}",
  'end}',
  "R.register_function{function_name='badargs', flags={'no-writes'}, callback=function() return R.register_function('x') end}",
].join('\n');

/** FCALL_RO of every function, then whether anything got registered. */
const CALLS: readonly string[][] = [
  ['FCALL_RO', 'late', '0'],
  ['FCALL_RO', 'caught', '0'],
  ['FCALL_RO', 'badargs', '0'],
  ['FCALL_RO', 'sneak', '0'],
  ['FUNCTION', 'STATS'],
];

/** The memory engine's answer over HTTP, as a plain reply. */
async function overHttp(server: KvRestServer, args: readonly string[], token: string): Promise<Plain> {
  const { json } = await postJson(server, '/', args, { token });
  const answer = json as { result?: Plain; error?: string };
  return answer.error === undefined ? (answer.result as Plain) : { error: answer.error };
}

describeWithRedisBinary('redis.register_function works only while FUNCTION LOAD runs the library', () => {
  const redis = useOwnRedisClient();
  let server: KvRestServer;
  beforeAll(async () => {
    server = await startServer('memory');
  });
  afterAll(() => server.close());

  it("refuses a kept `redis` table's register_function from FCALL_RO with the Read Only token, in Redis's words, and registers nothing", async () => {
    expect(await redis().send(['FUNCTION', 'LOAD', KEEPER])).toBe('keeper');
    expect(await overHttp(server, ['FUNCTION', 'LOAD', KEEPER], server.token)).toBe('keeper');
    const expected = [];
    for (const args of CALLS) expected.push(await redis().send(args));
    const actual = [];
    for (const args of CALLS) actual.push(await overHttp(server, args, args[0] === 'FCALL_RO' ? server.readonlyToken : server.token));
    expect(actual).toEqual(expected);
    // What Redis answers, written out so that the test says what it checks.
    expect(actual.slice(0, 2)).toEqual([
      { error: 'ERR redis.register_function can only be called on FUNCTION LOAD command script: late, on @user_function:4.' },
      ['false', 'ERR redis.register_function can only be called on FUNCTION LOAD command'],
    ]);
    expect(actual[3]).toEqual({ error: 'ERR Function not found' });
  });
});
