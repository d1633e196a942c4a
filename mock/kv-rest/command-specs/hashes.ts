// The hashes family's command specs, with Redis 7.0's arities and key positions.
import type { CommandSpec } from '../command-table';
import { command, FIRST_KEY } from './define';

export const hashesCommands: readonly CommandSpec[] = [
  command('hset', -4, ['write'], FIRST_KEY),
  command('hmset', -4, ['write'], FIRST_KEY),
  command('hsetnx', 4, ['write'], FIRST_KEY),
  command('hget', 3, ['readonly'], FIRST_KEY),
  command('hmget', -3, ['readonly'], FIRST_KEY),
  command('hgetall', 2, ['readonly'], FIRST_KEY),
  command('hdel', -3, ['write'], FIRST_KEY),
  command('hexists', 3, ['readonly'], FIRST_KEY),
  command('hlen', 2, ['readonly'], FIRST_KEY),
  command('hkeys', 2, ['readonly'], FIRST_KEY),
  command('hvals', 2, ['readonly'], FIRST_KEY),
  command('hincrby', 4, ['write'], FIRST_KEY),
  command('hincrbyfloat', 4, ['write'], FIRST_KEY),
  command('hstrlen', 3, ['readonly'], FIRST_KEY),
  command('hscan', -3, ['readonly'], FIRST_KEY),
  command('hrandfield', -2, ['readonly'], FIRST_KEY),
];
