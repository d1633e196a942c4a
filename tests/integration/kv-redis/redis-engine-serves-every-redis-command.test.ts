// The redis engine serves every command of Redis 7.0 that the REST policy allows, not only what the
// memory engine implements: OBJECT, MEMORY USAGE, BITFIELD, LCS, DUMP, ACL CAT and COMMAND's
// subcommands were answered `unknown command` although the redis-server behind runs them. The Read
// Only token follows Redis's own flags for them, and a command the server lacks is named in the error.
import { spawnSync } from 'node:child_process';
import { Redis } from '@upstash/redis';
import { call, postJson, useRedisEngineServer } from '../../support/kv-servers';
import { describeWithRedisBinary } from '../../support/installed-program';

describeWithRedisBinary('the redis engine serves the commands Redis 7.0 has [redis engine]', () => {
  const context = useRedisEngineServer();
  const client = () => new Redis({ url: context.server.url, token: context.server.token, retry: false, enableAutoPipelining: false });
  const run = async (command: readonly string[], token?: string) => (await postJson(context.server, '/', command, { token })).json;

  it("runs BITFIELD through the @upstash/redis client's bitfield builder", async () => {
    expect(await client().bitfield('bits').set('u8', 0, 200).get('u8', 0).incrby('u8', 0, 100).exec()).toEqual([0, 200, 44]);
  });

  it('answers OBJECT ENCODING, OBJECT REFCOUNT, MEMORY USAGE, LCS, BITFIELD_RO, ACL CAT and COMMAND COUNT as redis-server does', async () => {
    await run(['MSET', 'n', '12', 's', 'ohmytext', 't', 'mynewtext']);
    expect(await run(['OBJECT', 'ENCODING', 'n'])).toEqual({ result: 'int' });
    expect(await run(['OBJECT', 'ENCODING', 's'])).toEqual({ result: 'embstr' });
    expect(await run(['OBJECT', 'REFCOUNT', 's'])).toEqual({ result: 1 });
    expect(await run(['MEMORY', 'USAGE', 'missing'])).toEqual({ result: null });
    expect(await run(['LCS', 's', 't'])).toEqual({ result: 'mytext' });
    expect(await run(['BITFIELD_RO', 'n', 'GET', 'u8', '0'])).toEqual({ result: [49] });
    expect(((await run(['ACL', 'CAT'])) as { result: string[] }).result).toContain('geo');
    expect(await run(['COMMAND', 'COUNT'])).toEqual({ result: 240 });
  });

  it('lets the Read Only token run the new reads Redis flags readonly, and refuses it the writes and the unflagged commands', async () => {
    const readOnly = context.server.readonlyToken;
    await run(['SET', 'r', 'value']);
    expect(await run(['OBJECT', 'ENCODING', 'r'], readOnly)).toEqual({ result: 'embstr' });
    expect(await run(['LCS', 'r', 'r'], readOnly)).toEqual({ result: 'value' });
    expect(await run(['BITFIELD', 'r', 'SET', 'u8', '0', '1'], readOnly)).toEqual({ error: "NOPERM this user has no permissions to run the 'bitfield' command" });
    expect(await run(['COMMAND', 'COUNT'], readOnly)).toEqual({ error: "NOPERM this user has no permissions to run the 'command|count' command" });
    expect(await run(['GET', 'r'])).toEqual({ result: 'value' });
  });

  it('refuses MEMORY STATS and FUNCTION LOAD by the REST policy, with the reason', async () => {
    expect(await run(['MEMORY', 'STATS'])).toEqual({ error: "ERR Command is not available: 'MEMORY' (it shows or resets the whole server's diagnostics, other clients' commands included)" });
    expect(await run(['FUNCTION', 'LOAD', "#!lua name=lib\nredis.register_function('f', function() return 1 end)"])).toEqual({
      error: "ERR Command is not available: 'FUNCTION' (a library is server-wide Lua that runs outside the redis engine's script guard; the memory engine serves FUNCTION LOAD)",
    });
  });
});

/** The version redis-server reports, as INFO shows it (`Redis server v=7.0.15 sha=...`). */
const redisVersion = /v=(\S+)/.exec(spawnSync('redis-server', ['--version']).stdout?.toString() ?? '')?.[1];

describeWithRedisBinary('a command the redis-server behind lacks [redis engine]', () => {
  // LPOS renamed away: the server has no LPOS, as a Redis 7.0 has no HEXPIRE.
  const context = useRedisEngineServer({}, ['--rename-command', 'LPOS', '']);

  it('answers an error naming the command and the server version, not unknown command, alone, in a pipeline and in a transaction (discarded whole)', async () => {
    const lacking = `ERR the redis-server behind this REST API (${redisVersion}) does not have 'lpos'`;
    expect((await call(context.server, '/lpos/list/a')).json).toEqual({ error: lacking });
    expect((await postJson(context.server, '/pipeline', [['RPUSH', 'list', 'a'], ['LPOS', 'list', 'a']])).json).toEqual([{ result: 1 }, { error: lacking }]);
    expect((await postJson(context.server, '/multi-exec', [['RPUSH', 'list', 'b'], ['LPOS', 'list', 'b']])).json).toEqual({ error: lacking });
    // The transaction was discarded whole: its RPUSH did not run.
    expect((await call(context.server, '/llen/list')).json).toEqual({ result: 1 });
  });

  it("names the Redis release a newer command needs, from the command's metadata, for the @upstash/redis client's hexpire", async () => {
    const client = new Redis({ url: context.server.url, token: context.server.token, retry: false, enableAutoPipelining: false });
    await expect(client.hexpire('hash', 'field', 10)).rejects.toThrow(`ERR HEXPIRE needs Redis 7.4 or newer; this redis-server is ${redisVersion}`);
    expect((await postJson(context.server, '/', ['HGETDEL', 'hash', 'FIELDS', '1', 'field'])).json).toEqual({ error: `ERR HGETDEL needs Redis 8.0 or newer; this redis-server is ${redisVersion}` });
  });
});
