// Functions run in the scripts' own Lua sandbox: they keep working when that sandbox is replaced
// (SCRIPT FLUSH), they see none of an earlier script's KEYS and ARGV, they cannot change the globals
// a later script or function sees, and a library's functions are found by name case-insensitively,
// as Redis finds them.
import { useEngine } from './memory-engine-harness';

const LIBRARY = [
  '#!lua name=tools',
  "redis.register_function('echo', function(keys, args) return {keys, args} end)",
  "redis.register_function('peekKeys', function() return rawget(_G, 'KEYS') end)",
  "redis.register_function('poison', function() redis.call = function() return 'fake' end end)",
  "redis.register_function('get', function(keys) return redis.call('GET', keys[1]) end)",
].join('\n');

describe('functions in the script sandbox', () => {
  const engine = useEngine();

  it('keep running after SCRIPT FLUSH replaced the sandbox they were registered in', async () => {
    expect(await engine().run('FUNCTION', 'LOAD', LIBRARY)).toBe('tools');
    expect(await engine().run('FCALL', 'echo', '1', 'k', 'a')).toEqual([['k'], ['a']]);
    expect(await engine().run('SCRIPT', 'FLUSH')).toBe('OK');
    expect(await engine().run('FCALL', 'ECHO', '0', 'b')).toEqual([[], ['b']]);
  });

  it('see none of the KEYS an earlier EVAL was given', async () => {
    await engine().run('FUNCTION', 'LOAD', LIBRARY);
    expect(await engine().run('EVAL', 'return KEYS[1]', '1', 'secret-key')).toBe('secret-key');
    expect(await engine().run('FCALL', 'peekKeys', '0')).toBeNull();
  });

  it('cannot replace redis.call for later functions and scripts', async () => {
    await engine().run('FUNCTION', 'LOAD', LIBRARY);
    await engine().run('SET', 'k', 'real');
    expect(await engine().run('FCALL', 'poison', '0')).toEqual({ error: 'ERR user_function:4: Attempt to modify a readonly table script: poison, on @user_function:4.' });
    expect(await engine().run('FCALL', 'get', '1', 'k')).toBe('real');
    expect(await engine().run('EVAL', "return redis.call('GET', 'k')", '0')).toBe('real');
  });
});
