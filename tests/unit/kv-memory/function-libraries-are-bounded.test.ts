// Function libraries on the memory engine are bounded, as every buffer of the server is: how many
// libraries, how many functions and how many bytes of code the engine holds, and how long a
// library's code may run while it loads (Redis's own 500 ms) or a function while it is called.
import { LIBRARY_LIMITS } from '../../../mock/kv-rest/memory/scripting/function-libraries';
import { useEngine } from './memory-engine-harness';

const library = (name: string, body = "redis.register_function('f_NAME', function() return 1 end)") => `#!lua name=${name}\n${body.replace('NAME', name)}`;

describe('function libraries on the memory engine', () => {
  const engine = useEngine({ scriptTimeLimitMs: 200 });

  it(`hold at most ${LIBRARY_LIMITS.maxLibraries} libraries, and accept a replacement when full`, async () => {
    for (let index = 0; index < LIBRARY_LIMITS.maxLibraries; index++) expect(await engine().run('FUNCTION', 'LOAD', library(`lib${index}`))).toBe(`lib${index}`);
    expect(await engine().run('FUNCTION', 'LOAD', library('one_more'))).toEqual({ error: `ERR the memory engine holds at most ${LIBRARY_LIMITS.maxLibraries} function libraries` });
    expect(await engine().run('FUNCTION', 'LOAD', 'REPLACE', library('lib0'))).toBe('lib0');
  });

  it('refuse a library past the code bound before running any of it', async () => {
    const padding = `-- ${'x'.repeat(LIBRARY_LIMITS.maxCodeBytes)}\n`;
    expect(await engine().run('FUNCTION', 'LOAD', library('big', `${padding}redis.register_function('f', function() return 1 end)`))).toEqual({
      error: `ERR the memory engine holds at most ${LIBRARY_LIMITS.maxCodeBytes} bytes of function code`,
    });
  });

  it(`hold at most ${LIBRARY_LIMITS.maxFunctions} functions across libraries`, async () => {
    const quarter = LIBRARY_LIMITS.maxFunctions / 4;
    for (const name of ['q1', 'q2', 'q3', 'q4']) {
      expect(await engine().run('FUNCTION', 'LOAD', library(name, `for i = 1, ${quarter} do redis.register_function('${name}_' .. i, function() return i end) end`))).toBe(name);
    }
    expect(await engine().run('FUNCTION', 'LOAD', library('one_more'))).toEqual({ error: `ERR the memory engine holds at most ${LIBRARY_LIMITS.maxFunctions} functions` });
    expect(await engine().run('FUNCTION', 'STATS')).toEqual(['running_script', null, 'engines', ['LUA', ['libraries_count', 4, 'functions_count', LIBRARY_LIMITS.maxFunctions]]]);
  });

  it('stop a library whose code loops while loading, answering within 1 s as Redis words it', async () => {
    const started = Date.now();
    expect(await engine().run('FUNCTION', 'LOAD', library('loops', 'while true do end'))).toEqual({ error: 'ERR Error registering functions: ERR FUNCTION LOAD timeout' });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('stop a function that loops when called, at the script time limit', async () => {
    await engine().run('FUNCTION', 'LOAD', library('spins', "redis.register_function('spin', function() while true do end end)"));
    const started = Date.now();
    expect(await engine().run('FCALL', 'spin', '0')).toEqual({ error: 'BUSY script spin ran longer than the script time limit of 200 ms and was stopped' });
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
