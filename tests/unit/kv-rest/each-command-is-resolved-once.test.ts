// Issue 18, "command lookup and policy": the REST runner looked each command up in the command table
// and checked the REST policy, then the memory engine's dispatcher looked it up and checked it again;
// a script's redis.call was looked up by the script and again by the dispatcher. Each command is now
// resolved once (by the runner, or by the script for a redis.call) and engines receive resolved
// commands. These tests count the command table's lookups per command name.
import * as commandTable from '../../../mock/kv-rest/command-table';
import { CommandRunner, type RunContext } from '../../../mock/kv-rest/http/command-runner';
import { RequestLimits } from '../../../mock/kv-rest/http/limits';
import { generateToken, TokenRegistry } from '../../../mock/kv-rest/http/tokens';
import { createMemoryEngine } from '../../../mock/kv-rest/memory';
import type { Engine } from '../../../mock/kv-rest/engine';
import { NativeRun } from '../../../mock/kv-rest/memory/scripting/native-scripts/native-run';
import { KV_REST_DEFAULTS } from '../../../mock/kv-rest/server';
import { plain } from '../../fixtures/plain-replies';
import { captureRatelimitScripts } from '../kv-memory/ratelimit-script-texts';

const STANDARD_TOKEN: RunContext = { principal: { user: 'default', readOnly: false }, address: '127.0.0.1:50000' };

describe('each command is resolved once', () => {
  let engine: Engine;
  let runner: CommandRunner;
  let lookups: jest.SpyInstance;

  beforeEach(() => {
    engine = createMemoryEngine();
    runner = new CommandRunner(engine, new TokenRegistry(generateToken(), generateToken()), new RequestLimits(KV_REST_DEFAULTS, engine));
    lookups = jest.spyOn(commandTable, 'lookupCommand');
  });

  afterEach(async () => {
    lookups.mockRestore();
    await engine.close();
  });

  /** The name of each command the command table was asked for, in order. */
  const namesLookedUp = (): string[] => lookups.mock.calls.map(([args]) => (args as string[])[0]);

  it('looks a single command up once on its way through the runner and the memory engine', async () => {
    expect((await runner.runEach([['SET', 'k', 'v']], STANDARD_TOKEN)).map(plain)).toEqual(['OK']);
    expect(namesLookedUp()).toEqual(['SET']);
  });

  it('looks each command of a /pipeline up once', async () => {
    const replies = await runner.runEach([['SET', 'n', '1'], ['INCR', 'n'], ['GET', 'n'], ['NOSUCH']], STANDARD_TOKEN);
    expect(replies.map(plain)).toEqual(['OK', 2, '2', { error: "ERR unknown command 'NOSUCH', with args beginning with: " }]);
    expect(namesLookedUp()).toEqual(['SET', 'INCR', 'GET', 'NOSUCH']);
  });

  it('looks each command of a /multi-exec up once', async () => {
    const replies = await runner.runTransaction([['SET', 'n', '1'], ['INCR', 'n']], STANDARD_TOKEN);
    expect(Array.isArray(replies) && replies.map(plain)).toEqual(['OK', 2]);
    expect(namesLookedUp()).toEqual(['SET', 'INCR']);
  });

  it("looks a script up once and each of its redis.call and redis.pcall once, refusals included", async () => {
    const script = "redis.call('SET', 'k', 'v') local refused = redis.pcall('EVAL', 'return 1', '0') return {redis.call('GET', 'k'), refused['err']}";
    const [reply] = await runner.runEach([['EVAL', script, '0']], STANDARD_TOKEN);
    expect(plain(reply)).toEqual(['v', 'ERR This Redis command is not allowed from script']);
    expect(namesLookedUp()).toEqual(['EVAL', 'SET', 'EVAL', 'GET']);
  });

  it("looks each redis.call of a natively run @upstash/ratelimit script up once", async () => {
    const fixedWindow = (await captureRatelimitScripts()).get('fixedWindow.limit')!;
    lookups.mockClear();
    const nativeRuns = jest.spyOn(NativeRun, 'execute');
    try {
      const [reply] = await runner.runEach([['EVAL', fixedWindow, '1', 'limit-key', '10', '60000', '1']], STANDARD_TOKEN);
      expect(plain(reply)).toEqual([1, 10]);
      expect(nativeRuns).toHaveBeenCalledTimes(1);
    } finally {
      nativeRuns.mockRestore();
    }
    expect(namesLookedUp()).toEqual(['EVAL', 'INCRBY', 'PEXPIRE']);
  });
});
