// The redis engine in front of a redis-server without RedisJSON (Debian's 7.0 has no modules):
// the JSON.* commands are in the command table, so they answer an error naming the module they
// need, alone, in a pipeline, from the @upstash/redis client and in a transaction (discarded
// whole), never Redis's `unknown command`.
import { spawnSync } from 'node:child_process';
import { Redis } from '@upstash/redis';
import { call, postJson, useRedisEngineServer } from '../../support/kv-servers';
import { describeWithRedisBinary } from '../../support/installed-program';

/** The version redis-server reports (`Redis server v=7.0.15 sha=...`). */
const redisVersion = /v=(\S+)/.exec(spawnSync('redis-server', ['--version']).stdout?.toString() ?? '')?.[1];

describeWithRedisBinary('JSON commands on a redis-server without RedisJSON [redis engine]', () => {
  const context = useRedisEngineServer();
  const needs = (command: string) => `ERR ${command} needs the RedisJSON module; this redis-server is ${redisVersion}`;

  it('answers JSON.SET and JSON.GET with an error naming the RedisJSON module, alone, in a pipeline and in a transaction', async () => {
    expect((await postJson(context.server, '/', ['JSON.SET', 'doc', '$', '{"a":1}'])).json).toEqual({ error: needs('JSON.SET') });
    expect((await call(context.server, '/json.get/doc')).json).toEqual({ error: needs('JSON.GET') });
    expect((await postJson(context.server, '/pipeline', [['SET', 'k', 'v'], ['JSON.TYPE', 'doc']])).json).toEqual([{ result: 'OK' }, { error: needs('JSON.TYPE') }]);
    expect((await postJson(context.server, '/multi-exec', [['SET', 'k', 'w'], ['JSON.ARRAPPEND', 'doc', '$', '1']])).json).toEqual({ error: needs('JSON.ARRAPPEND') });
    expect((await call(context.server, '/get/k')).json).toEqual({ result: 'v' });
  });

  it("gives the @upstash/redis client's json.set the same error", async () => {
    const redis = new Redis({ url: context.server.url, token: context.server.token, retry: false, enableAutoPipelining: false });
    await expect(redis.json.set('doc', '$', { a: 1 })).rejects.toThrow(needs('JSON.SET'));
  });
});
