// The official @upstash/redis client's `functions` methods (load, list, call, callRo, stats, delete,
// flush) against the memory engine, which serves FUNCTION LOAD: what a user of the client calls
// answers as it does against Redis (FCALL_RO as against Upstash), libraries outlive FLUSHALL as in
// Redis, and the Read Only token can call functions only through FCALL_RO, confined to what it may
// run directly. On the redis engine, FUNCTION LOAD is refused by the REST policy and a library the
// server's operator loaded is called through the same methods.
import { Redis } from '@upstash/redis';
import type { KvRestServer } from '../../../mock';
import { startServer, useRedisEngineServer } from '../../support/kv-servers';
import { describeWithRedisBinary } from '../../support/installed-program';
import { RedisClient } from '../../fixtures/redis-client';

const COUNTERS = [
  '#!lua name=counters',
  "redis.register_function('bump', function(keys, args) return redis.call('INCRBY', keys[1], args[1]) end)",
  'redis.register_function{',
  "  function_name = 'peek',",
  "  callback = function(keys) return redis.call('GET', keys[1]) end,",
  "  flags = { 'no-writes' },",
  "  description = 'reads a counter',",
  '}',
  "redis.register_function{function_name = 'listKeys', callback = function() return redis.call('KEYS', '*') end, flags = {'no-writes'}}",
].join('\n');

describe('@upstash/redis client on functions [memory engine]', () => {
  let server: KvRestServer;
  beforeAll(async () => {
    server = await startServer('memory');
  });
  afterAll(() => server.close());

  const client = (token = server.token) => new Redis({ url: server.url, token, retry: false });

  it('loads a library, lists it with its code, calls its functions and counts it in the stats', async () => {
    const redis = client();
    expect(await redis.functions.load({ code: COUNTERS })).toBe('counters');
    await expect(redis.functions.load({ code: COUNTERS })).rejects.toThrow("ERR Library 'counters' already exists");
    expect(await redis.functions.load({ code: COUNTERS, replace: true })).toBe('counters');
    expect(await redis.functions.call('bump', ['hits'], ['5'])).toBe(5);
    expect(await redis.functions.callRo('peek', ['hits'])).toBe(5);
    expect(await redis.functions.list({ libraryName: 'count*', withCode: true })).toEqual([
      {
        libraryName: 'counters',
        engine: 'LUA',
        functions: [
          { name: 'bump', description: undefined, flags: [] },
          { name: 'peek', description: 'reads a counter', flags: ['no-writes'] },
          { name: 'listKeys', description: undefined, flags: ['no-writes'] },
        ],
        libraryCode: COUNTERS,
      },
    ]);
    expect(await redis.functions.list({ libraryName: 'other*' })).toEqual([]);
    expect(await redis.functions.stats()).toEqual({ engines: { LUA: { librariesCount: 1, functionsCount: 3 } } });
  });

  it('keeps libraries through FLUSHALL, as Redis does, and removes them with FUNCTION DELETE and FLUSH', async () => {
    const redis = client();
    await redis.functions.load({ code: COUNTERS, replace: true });
    expect(await redis.flushall()).toBe('OK');
    expect(await redis.functions.call('bump', ['hits'], ['1'])).toBe(1);
    expect(await redis.functions.delete('counters')).toBe('OK');
    await expect(redis.functions.call('bump', ['hits'], ['1'])).rejects.toThrow('ERR Function not found');
    await expect(redis.functions.delete('counters')).rejects.toThrow('ERR Library not found');
    await redis.functions.load({ code: COUNTERS });
    expect(await redis.functions.flush()).toBe('OK');
    expect(await redis.functions.list()).toEqual([]);
  });

  it('runs FCALL_RO of a function without no-writes read-only, as Upstash does (Redis refuses the call), refusing its write', async () => {
    const redis = client();
    await redis.functions.load({ code: COUNTERS, replace: true });
    await expect(redis.functions.callRo('bump', ['hits'], ['1'])).rejects.toThrow('ERR Write commands are not allowed from read-only scripts. script: bump, on @user_function:2.');
  });

  it('lets the Read Only token call no-writes functions with FCALL_RO only, confined to what the token may run', async () => {
    await client().functions.load({ code: COUNTERS, replace: true });
    await client().set('hits', '7');
    const readOnly = client(server.readonlyToken);
    expect(await readOnly.functions.callRo('peek', ['hits'])).toBe(7);
    await expect(readOnly.functions.call('peek', ['hits'])).rejects.toThrow("NOPERM this user has no permissions to run the 'fcall' command");
    await expect(readOnly.functions.callRo('bump', ['hits'], ['1'])).rejects.toThrow(
      "ERR The user executing the script can't run this command or subcommand script: bump, on @user_function:2.",
    );
    await expect(readOnly.functions.load({ code: COUNTERS, replace: true })).rejects.toThrow("NOPERM this user has no permissions to run the 'function|load' command");
    await expect(readOnly.functions.flush()).rejects.toThrow("NOPERM this user has no permissions to run the 'function|flush' command");
    await expect(readOnly.functions.callRo('listKeys')).rejects.toThrow(
      "ERR The user executing the script can't run this command or subcommand script: listKeys, on @user_function:9.",
    );
  });
});

describeWithRedisBinary('@upstash/redis client on functions [redis engine]', () => {
  const context = useRedisEngineServer();
  const client = (token = context.server.token) => new Redis({ url: context.server.url, token, retry: false });

  it("refuses FUNCTION LOAD with the policy's reason, and calls a library the server's operator loaded", async () => {
    await expect(client().functions.load({ code: COUNTERS })).rejects.toThrow(
      "ERR Command is not available: 'function' (a library is server-wide Lua that runs outside the redis engine's script guard; the memory engine serves FUNCTION LOAD)",
    );
    const operator = await RedisClient.connect(context.redis.url);
    try {
      expect(await operator.send(['FUNCTION', 'LOAD', COUNTERS])).toBe('counters');
    } finally {
      operator.close();
    }
    expect(await client().functions.call('bump', ['hits'], ['2'])).toBe(2);
    expect(await client(context.server.readonlyToken).functions.callRo('peek', ['hits'])).toBe(2);
    await expect(client(context.server.readonlyToken).functions.call('bump', ['hits'], ['1'])).rejects.toThrow("NOPERM this user has no permissions to run the 'fcall' command");
    // Redis lists a library's functions in its hash order, so they are compared by name.
    const [library] = await client().functions.list();
    expect({ ...library, functions: [...library.functions].sort((a, b) => a.name.localeCompare(b.name)) }).toEqual({
      libraryName: 'counters',
      engine: 'LUA',
      functions: [
        { name: 'bump', description: undefined, flags: [] },
        { name: 'listKeys', description: undefined, flags: ['no-writes'] },
        { name: 'peek', description: 'reads a counter', flags: ['no-writes'] },
      ],
      libraryCode: undefined,
    });
  });
});
