// The hashes family's command specs, with Redis 7.0's arities and key positions, and the
// hash-field expiry commands with the arities of the Redis release that brought each (7.4, 8.0).
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
  command('hexpire', -6, ['write'], FIRST_KEY),
  command('hpexpire', -6, ['write'], FIRST_KEY),
  command('hexpireat', -6, ['write'], FIRST_KEY),
  command('hpexpireat', -6, ['write'], FIRST_KEY),
  command('httl', -5, ['readonly'], FIRST_KEY),
  command('hpttl', -5, ['readonly'], FIRST_KEY),
  command('hexpiretime', -5, ['readonly'], FIRST_KEY),
  command('hpexpiretime', -5, ['readonly'], FIRST_KEY),
  command('hpersist', -5, ['write'], FIRST_KEY),
  command('hgetex', -5, ['write'], FIRST_KEY),
  command('hsetex', -6, ['write'], FIRST_KEY),
  command('hgetdel', -5, ['write'], FIRST_KEY),
];
