// Finding 1 and 15, differentially: every escape attempt on the script sandbox and every shape of
// script error gets the same reply from the memory engine as from a real redis-server 7.0 of the
// test's own. `error({})` is left out: it crashes Redis 7.0.15 itself (see the finding 15 test).
import { OwnRedisServer, describeWithRedisBinary } from '../../support/redis-server';
import { engineUnderTest, type EngineUnderTest } from './memory-engine-harness';
import { RespClient } from './resp-client';
import { ESCAPE_ATTEMPTS } from './script-escape-attempts';

const ERROR_SHAPES: readonly string[] = [
  "error('boom')",
  'error(1)',
  "error({err='x'})",
  "error({err='ERR x y'})",
  "error(redis.error_reply('MY failure'))",
  "return {err='x'}",
  "return redis.error_reply('x')",
  'local ok, e = pcall(setmetatable, _G, nil) return e',
  'local ok, e = pcall(function() x = 1 end) return e',
  "KEYS[1] = 'x' return KEYS[1]",
  'return foo',
];

describeWithRedisBinary('finding 1: escape attempts and script errors answer exactly as redis-server does', () => {
  let server: OwnRedisServer;
  let redis: RespClient;
  let memory: EngineUnderTest;
  beforeAll(async () => {
    server = await OwnRedisServer.start();
    redis = await RespClient.connect(server.url);
    memory = engineUnderTest();
  });
  afterAll(async () => {
    redis?.close();
    await server?.stop();
    await memory?.engine.close();
  });

  it.each([...ESCAPE_ATTEMPTS, ...ERROR_SHAPES])('finding 1: %s', async (script) => {
    const args = ['EVAL', script, '0'];
    expect(await memory.run(...args)).toEqual(await redis.send(args));
  });
});
