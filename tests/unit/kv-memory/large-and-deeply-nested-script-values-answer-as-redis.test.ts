// Finding 16 of the attack review, its scripting part: `cjson.encode` of 200,000 elements failed with
// `Maximum call stack size exceeded` (an argument spread) and `return {1,{2,{3,{4}}}}` with `stack
// overflow` (a Lua stack never grown). Both answer as Redis does, and the nesting limits are
// Redis's: 1000 levels for cjson both ways, and deeper return values become an error element.
import { useEngine } from './memory-engine-harness';

const nested = (levels: number, innermost = '{}') => `local t = ${innermost} for i = 1, ${levels} do t = {t} end`;

describe('large and deeply nested values in scripts answer as in Redis', () => {
  const subject = useEngine();
  const run = (...args: (string | number)[]) => subject().run(...args);

  it('finding 16: return {1,{2,{3,{4}}}} answers the nested array', async () => {
    expect(await run('EVAL', 'return {1,{2,{3,{4}}}}', '0')).toEqual([1, [2, [3, [4]]]]);
  });

  it('finding 16: a return value nested 1000 levels deep converts, and a deeper table becomes an error element', async () => {
    let reply = await run('EVAL', `${nested(999, "{'core'}")} return t`, '0');
    for (let level = 0; level < 999; level++) reply = (reply as unknown[])[0] as typeof reply;
    expect(reply).toEqual(['core']);
    reply = await run('EVAL', `${nested(1000)} return t`, '0');
    for (let level = 0; level < 999; level++) reply = (reply as unknown[])[0] as typeof reply;
    expect(reply).toEqual([{ error: 'ERR reached lua stack limit' }]);
  });

  it('finding 16: cjson.encode of 200,000 elements answers the same text length as Redis', async () => {
    expect(await run('EVAL', 'local t = {} for i = 1, 200000 do t[i] = i end return #cjson.encode(t)', '0')).toBe(1288896);
    expect(await run('EVAL', 'local t = {} for i = 1, 200000 do t[i] = i end return #cjson.decode(cjson.encode(t))', '0')).toBe(200000);
  });

  it("finding 16: cjson nests 1000 levels both ways and refuses the next with lua-cjson's texts", async () => {
    expect(await run('EVAL', `${nested(999)} return #cjson.encode(t)`, '0')).toBe(2000);
    expect(await run('EVAL', `${nested(1000)} return cjson.encode(t)`, '0')).toEqual({ error: expect.stringMatching(/^ERR user_script:1: Cannot serialise, excessive nesting \(1001\) script: /) });
    expect(await run('EVAL', "return #cjson.decode(string.rep('[', 1000) .. string.rep(']', 1000))", '0')).toBe(1);
    expect(await run('EVAL', "return cjson.decode(string.rep('[', 1001) .. string.rep(']', 1001))", '0')).toEqual({
      error: expect.stringMatching(/^ERR user_script:1: Found too many nested data structures \(1001\) at character 1001 script: /),
    });
  });

  it("finding 16: cjson.encode refuses sparse arrays and values JSON cannot hold with lua-cjson's texts", async () => {
    expect(await run('EVAL', 'return cjson.encode({[1] = 1, [3] = 2})', '0')).toBe('[1,null,2]');
    expect(await run('EVAL', 'return cjson.encode({[1] = 1, [20] = 2})', '0')).toEqual({ error: expect.stringMatching(/^ERR user_script:1: Cannot serialise table: excessively sparse array script: /) });
    expect(await run('EVAL', 'return cjson.encode({1/0})', '0')).toEqual({ error: expect.stringMatching(/^ERR user_script:1: Cannot serialise number: must not be NaN or Inf script: /) });
    expect(await run('EVAL', 'return cjson.encode({[true] = 1})', '0')).toEqual({ error: expect.stringMatching(/^ERR user_script:1: Cannot serialise boolean: table key must be a number or string script: /) });
  });
});
