// Finding 15 of the attack review: script errors reported as success. `error({})` answered 200 with
// an empty array, and a JS exception inside a protected call (a JS stack overflow) was caught by the
// script's pcall, which went on and answered 200 with a partial result.
import { engineUnderTest, useEngine } from './memory-engine-harness';
import { plain } from '../../fixtures/plain-replies';
import { ScriptRunner } from '../../../mock/kv-rest/memory/scripting/script-runner';
import type { CommandContext } from '../../../mock/kv-rest/memory/handler';
import { bulk } from '../../../mock/kv-rest/reply';

/** The database's Standard token as the caller of the scripts below. */
const STANDARD_TOKEN = { user: 'default', address: 'test' };

describe('script errors are errors', () => {
  const subject = useEngine();
  const run = (...args: (string | number)[]) => subject().run(...args);

  it('finding 15: error({}) answers ERR unknown error, as Redis releases that no longer crash on it do', async () => {
    expect(await run('EVAL', 'error({})', '0')).toEqual({ error: expect.stringMatching(/^ERR unknown error script: [0-9a-f]{40}, on @user_script:1\.$/) });
    expect(await run('EVAL', 'local x = 1\nerror({}, 2)', '0')).toEqual({ error: expect.stringMatching(/^ERR unknown error script: [0-9a-f]{40}, on @user_script:2\.$/) });
  });

  it('finding 15: an error table raised by the script keeps its text and gets the script and line', async () => {
    expect(await run('EVAL', "\nerror({err='MY failure'})", '0')).toEqual({ error: expect.stringMatching(/^MY failure script: [0-9a-f]{40}, on @user_script:2\.$/) });
    expect(await run('EVAL', 'return pcall(error, {})', '0')).toBeNull();
  });

  it('finding 15: a JS exception inside pcall fails the whole script, and the next run works', () => {
    const runner = new ScriptRunner(1000);
    const exploding: CommandContext = {
      caller: STANDARD_TOKEN,
      call: () => {
        throw new RangeError('Maximum call stack size exceeded');
      },
    } as unknown as CommandContext;
    const loaded = runner.load("local ok = pcall(redis.call, 'GET', 'k') return 'went on'");
    if (!('sha' in loaded)) throw new Error('the script did not compile');
    const reply = runner.run({ sha: loaded.sha, keys: [], args: [], readOnly: false, ctx: exploding });
    expect(plain(reply)).toEqual({ error: `ERR the script engine failed: Maximum call stack size exceeded script: ${loaded.sha}, on @user_script:1.` });
    const calm = { caller: STANDARD_TOKEN, call: () => bulk('v') } as unknown as CommandContext;
    expect(plain(runner.run({ sha: loaded.sha, keys: [], args: [], readOnly: false, ctx: calm }))).toBe('went on');
  });

  it('finding 15: a JS exception in xpcall and in nested pcalls fails the whole script too', () => {
    const runner = new ScriptRunner(1000);
    const exploding = { caller: STANDARD_TOKEN, call: () => { throw new TypeError('boom'); } } as unknown as CommandContext;
    for (const script of [
      "local ok = xpcall(function() return redis.call('GET', 'k') end, function(e) return e end) return 'went on'",
      "local ok = pcall(pcall, redis.call, 'GET', 'k') return 'went on'",
    ]) {
      const loaded = runner.load(script);
      if (!('sha' in loaded)) throw new Error('the script did not compile');
      expect(plain(runner.run({ sha: loaded.sha, keys: [], args: [], readOnly: false, ctx: exploding }))).toEqual({ error: expect.stringMatching(/^ERR the script engine failed: boom script: /) });
    }
  });

  it('finding 15: reply and error tables are read without running their metamethods, as Redis reads them', async () => {
    const reading = "setmetatable({}, {__index = function() return 'looked up' end})";
    expect(await run('EVAL', `return ${reading}`, '0')).toEqual([]);
    expect(await run('EVAL', `error(${reading})`, '0')).toEqual({ error: expect.stringMatching(/^ERR unknown error script: /) });
    expect(await run('EVAL', "return setmetatable({}, {__index = function() while true do end end})", '0')).toEqual([]);
  });

  it('finding 15: cjson.decode of deeply nested JSON is an error the script can catch, as in Redis', async () => {
    const engine = engineUnderTest();
    try {
      expect(await engine.run('EVAL', "local ok, e = pcall(cjson.decode, string.rep('[', 5000) .. string.rep(']', 5000)) return {tostring(ok), e}", '0')).toEqual([
        'false',
        'Found too many nested data structures (1001) at character 1001',
      ]);
    } finally {
      await engine.engine.close();
    }
  });
});
