// mock/kv-rest/generated/redis-7.0-commands.json is exactly what the installed redis-server 7.0
// answers to COMMAND INFO (fails when the committed file drifts or was edited by hand).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { formatCommandsFile, readRedisCommands } from '../../../scripts/redis-commands';
import { ThrowawayRedisServer } from '../../fixtures/redis-server';
import { describeWithRedisBinary } from '../../support/installed-program';

const FILE = path.join(__dirname, '..', '..', '..', 'mock', 'kv-rest', 'generated', 'redis-7.0-commands.json');

describeWithRedisBinary('the generated Redis command metadata', () => {
  let redis: ThrowawayRedisServer;
  beforeAll(async () => {
    redis = await ThrowawayRedisServer.start();
  });
  afterAll(async () => {
    await redis.remove();
  });

  it('is what redis-server answers, to the byte (after upgrading Redis, run `npm run commands`)', async () => {
    const live = await readRedisCommands(redis.url);
    const committed = readFileSync(FILE, 'utf8');
    const header = JSON.parse(committed) as { redisVersion: string };
    // Another minor version of Redis describes other commands: the file says which one it is from.
    expect(live.redisVersion.split('.').slice(0, 2)).toEqual(header.redisVersion.split('.').slice(0, 2));
    expect(formatCommandsFile({ ...live, redisVersion: header.redisVersion })).toBe(committed);
  });
});
