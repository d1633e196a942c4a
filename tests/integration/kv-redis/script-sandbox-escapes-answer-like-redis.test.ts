// Findings 1, 15 and 16, differentially: every escape attempt on the script sandbox, every shape of
// script error and the large and nested values get the same reply from the memory engine as from a
// real redis-server 7.0 of the test's own. An uncaught `error({})` is left out: it crashes Redis
// 7.0.15 itself (tests/unit/kv-memory/script-errors-are-errors.test.ts has the answer of the Redis
// releases that fixed it).
import { useOwnRedisClient } from '../../support/redis-client';
import { describeWithRedisBinary } from '../../support/installed-program';
import { engineUnderTest, type EngineUnderTest } from '../../unit/kv-memory/memory-engine-harness';
import { ESCAPE_ATTEMPTS } from '../../unit/kv-memory/script-escape-attempts';

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
  'return {pcall(error, {})}',
  "return setmetatable({}, {__index = function() return 'looked up' end})",
];

const LARGE_VALUES: readonly string[] = [
  'return {1,{2,{3,{4}}}}',
  'local t = {} for i = 1, 200000 do t[i] = i end return #cjson.encode(t)',
  'local t = {} for i = 1, 1000 do t = {t} end return cjson.encode(t)',
  "return cjson.decode(string.rep('[', 1001) .. string.rep(']', 1001))",
  'return cjson.encode({[1] = 1, [20] = 2})',
  'return cjson.encode(function() end)',
];

describeWithRedisBinary('scripts answer exactly as redis-server does', () => {
  const redis = useOwnRedisClient();
  let memory: EngineUnderTest;
  beforeAll(() => {
    memory = engineUnderTest();
  });
  afterAll(async () => {
    await memory?.engine.close();
  });

  const sameReply = async (script: string) => {
    const args = ['EVAL', script, '0'];
    expect(await memory.run(...args)).toEqual(await redis().send(args));
  };
  it.each(ESCAPE_ATTEMPTS)('finding 1: the escape attempt %s gets the reply redis-server gives', sameReply);
  it.each(ERROR_SHAPES)('finding 15: the script error %s gets the reply redis-server gives', sameReply);
  it.each(LARGE_VALUES)('finding 16: the large value %s gets the reply redis-server gives', sameReply);
});
