// Every command and subcommand Redis 7.0 flags `noscript` is refused inside a script by the memory
// engine exactly as redis-server refuses it (the flags come from Redis's own metadata, so this is
// the check that the engine reads them the way Redis does), compared with a redis-server of the
// suite's own: the reply of `redis.pcall(<command>, ...)` inside EVAL, on both sides.
import commandsFile from '../../../mock/kv-rest/generated/redis-7.0-commands.json';
import type { RedisCommandsFile } from '../../../mock/kv-rest/redis-command-info';
import { useOwnRedisClient } from '../../support/redis-client';
import { describeWithRedisBinary } from '../../support/installed-program';
import { engineUnderTest } from '../../unit/kv-memory/memory-engine-harness';

const { commands } = commandsFile as RedisCommandsFile;
const containers = new Set(Object.keys(commands).filter((name) => name.includes('|')).map((name) => name.split('|')[0]));

/** A pcall of the command with as many arguments as its arity asks for. */
function pcallOf(name: string): string {
  const parts = name.split('|');
  const padding = Array.from({ length: Math.max(0, Math.abs(commands[name].arity) - parts.length) }, () => 'x');
  return `redis.pcall(${[...parts, ...padding].map((part) => `'${part}'`).join(', ')})`;
}

const NOSCRIPT = Object.keys(commands).filter((name) => commands[name].flags.includes('noscript') && !containers.has(name));

describeWithRedisBinary('commands Redis flags noscript, inside a script', () => {
  const redis = useOwnRedisClient();

  it(`are refused by the memory engine with the reply redis-server gives (${NOSCRIPT.length} commands)`, async () => {
    const script = `return {${NOSCRIPT.map(pcallOf).join(', ')}}`;
    const expected = await redis().send(['EVAL', script, '0']);
    const memory = engineUnderTest();
    try {
      expect(await memory.run('EVAL', script, '0')).toEqual(expected);
    } finally {
      await memory.engine.close();
    }
    expect(expected).toEqual(NOSCRIPT.map(() => ({ error: 'ERR This Redis command is not allowed from script' })));
  });
});
