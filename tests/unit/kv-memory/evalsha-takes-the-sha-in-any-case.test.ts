// EVALSHA looks the SHA up as sent when the script cache has it (clients send it in lower case, as
// SCRIPT LOAD answers it) and lower-cases it only otherwise. Like Redis, any case of a known SHA runs
// the script, natively or on Lua, and an unknown one answers NOSCRIPT.
import { scriptSha } from '../../../shared/script-shebang';
import { useEngine } from './memory-engine-harness';
import { captureRatelimitScripts } from './ratelimit-script-texts';

describe('EVALSHA takes the SHA in any case', () => {
  const subject = useEngine();

  it('runs a native script and a Lua script by their SHA in lower, upper or mixed case', async () => {
    const { run } = subject();
    const slidingWindow = (await captureRatelimitScripts()).get('slidingWindow.limit')!;
    const lua = "return redis.call('INCR', KEYS[1])";
    for (const text of [slidingWindow, lua]) expect(await run('SCRIPT', 'LOAD', text)).toBe(scriptSha(text));
    const native = scriptSha(slidingWindow);
    const mixed = (sha: string) => [...sha].map((char, index) => (index % 2 ? char.toUpperCase() : char)).join('');
    const answers = [];
    for (const sha of [native, native.toUpperCase(), mixed(native)]) answers.push(await run('EVALSHA', sha, '2', 'current', 'previous', '10', '1000', '60000', '1'));
    for (const sha of [scriptSha(lua), scriptSha(lua).toUpperCase(), mixed(scriptSha(lua))]) answers.push(await run('EVALSHA', sha, '1', 'counter'));
    expect(answers).toEqual([[9, 10], [8, 10], [7, 10], 1, 2, 3]);
  });

  it('answers NOSCRIPT for a SHA the cache does not have, in any case', async () => {
    const { run } = subject();
    const unknown = 'AB'.repeat(20);
    expect([await run('EVALSHA', unknown, '0'), await run('EVALSHA', unknown.toLowerCase(), '0')]).toEqual([
      { error: 'NOSCRIPT No matching script. Please use EVAL.' },
      { error: 'NOSCRIPT No matching script. Please use EVAL.' },
    ]);
  });
});
