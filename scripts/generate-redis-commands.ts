// Writes mock/kv-rest/generated/redis-7.0-commands.json from a throwaway redis-server's own
// `COMMAND INFO`, so the key-value server's key positions and ACL categories are Redis's, not a
// retyped copy. Run after a build (`npm run commands`); needs redis-server 7.0 on PATH.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startRedisServer } from '../bench/services';
import { stopAllProcesses } from '../bench/processes';
import { repositoryRoot } from './repository-root';
import { formatCommandsFile, readRedisCommands } from './redis-commands';

async function main(): Promise<void> {
  const redis = await startRedisServer();
  try {
    const commands = await readRedisCommands(redis.url);
    if (!commands.redisVersion.startsWith('7.0.')) throw new Error(`this file describes Redis 7.0, but redis-server is ${commands.redisVersion}`);
    const file = path.join(repositoryRoot(__dirname), 'mock', 'kv-rest', 'generated', 'redis-7.0-commands.json');
    writeFileSync(file, formatCommandsFile(commands));
    console.log(`wrote ${file}: ${Object.keys(commands.commands).length} commands and subcommands of redis-server ${commands.redisVersion}`);
  } finally {
    await stopAllProcesses();
  }
}

main().catch((failure: unknown) => {
  console.error(failure);
  process.exitCode = 1;
});
