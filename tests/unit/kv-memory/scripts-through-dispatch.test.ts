// Scripts on the real memory engine: their redis.call goes through the same dispatcher (ACL, the
// keyspace, MONITOR as `lua`), and SCAN ... MATCH loops work the way @upstash/ratelimit uses them.
import { CLIENT, useEngine } from './memory-engine-harness';
import { executeAsSent } from '../../support/engine-commands';

describe('memory engine: scripts through the dispatcher', () => {
  const subject = useEngine();
  const run = (...args: (string | number)[]) => subject().run(...args);

  it('reads and writes the keyspace from a script', async () => {
    expect(await run('EVAL', "redis.call('SET', KEYS[1], ARGV[1]); return redis.call('INCRBY', KEYS[1], 5)", '1', 'n', '10')).toBe(15);
    expect(await run('GET', 'n')).toBe('15');
  });

  it('deletes by SCAN MATCH in a loop, as resetUsedTokens does', async () => {
    await run('MSET', 'rl:a:1', 'x', 'rl:a:2', 'x', 'rl:b:1', 'x');
    const script = `
      local cursor = "0"
      local deleted = 0
      repeat
        local result = redis.call("SCAN", cursor, "MATCH", ARGV[1], "COUNT", 1)
        cursor = result[1]
        for _, key in ipairs(result[2]) do deleted = deleted + redis.call("DEL", key) end
      until cursor == "0"
      return deleted`;
    expect(await run('EVAL', script, '0', 'rl:a:*')).toBe(2);
    expect(await run('KEYS', '*')).toEqual(['rl:b:1']);
  });

  it('shows the script and then its commands in MONITOR', async () => {
    const lines: string[] = [];
    await subject().engine.monitor((line) => lines.push(line), CLIENT);
    await run('EVAL', "return redis.call('GET', 'k')", '0');
    expect(lines.map((line) => line.replace(/^\d+\.\d{6} /, ''))).toEqual([
      `[0 127.0.0.1:50000] "EVAL" "return redis.call('GET', 'k')" "0"`,
      '[0 lua] "GET" "k"',
    ]);
  });

  it('applies the caller ACL to commands a script runs', async () => {
    await run('ACL', 'SETUSER', 'scripter', 'on', 'nopass', '~*', '+eval', '+get');
    const caller = { user: 'scripter', address: '127.0.0.1:1' };
    const [reply] = await executeAsSent(subject().engine, [['EVAL', "return redis.call('SET', 'k', 'v')", '0']], { transaction: false, caller });
    // Redis 7.0's words for the script author, with the script's position.
    expect(reply).toEqual({
      kind: 'error',
      message: "ERR The user executing the script can't run this command or subcommand script: 5c4d62f4e30c54fb15935b5892148e5ce7374077, on @user_script:1.",
    });
    expect(await run('EXISTS', 'k')).toBe(0);
  });
});
