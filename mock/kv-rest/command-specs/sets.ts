// The sets family's command specs, with Redis 7.0's arities and key positions.
import type { CommandSpec } from '../command-table';
import { ALL_KEYS, command, FIRST_KEY, NO_KEYS } from './define';

export const setsCommands: readonly CommandSpec[] = [
  command('sadd', -3, ['write'], FIRST_KEY),
  command('srem', -3, ['write'], FIRST_KEY),
  command('smembers', 2, ['readonly'], FIRST_KEY),
  command('sismember', 3, ['readonly'], FIRST_KEY),
  command('smismember', -3, ['readonly'], FIRST_KEY),
  command('scard', 2, ['readonly'], FIRST_KEY),
  command('spop', -2, ['write'], FIRST_KEY),
  command('srandmember', -2, ['readonly'], FIRST_KEY),
  command('smove', 4, ['write'], [1, 2, 1]),
  command('sinter', -2, ['readonly'], ALL_KEYS),
  command('sintercard', -3, ['readonly'], NO_KEYS),
  command('sinterstore', -3, ['write'], ALL_KEYS),
  command('sunion', -2, ['readonly'], ALL_KEYS),
  command('sunionstore', -3, ['write'], ALL_KEYS),
  command('sdiff', -2, ['readonly'], ALL_KEYS),
  command('sdiffstore', -3, ['write'], ALL_KEYS),
  command('sscan', -3, ['readonly'], FIRST_KEY),
];
