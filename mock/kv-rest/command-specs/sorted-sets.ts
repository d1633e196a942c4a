// The sorted-sets family's command specs, with Redis 7.0's arities and key positions.
import type { CommandSpec } from '../command-table';
import { command, FIRST_KEY, NO_KEYS } from './define';

const read = (name: string, arity: number) => command(name, arity, ['readonly'], FIRST_KEY);
const write = (name: string, arity: number) => command(name, arity, ['write'], FIRST_KEY);

export const sortedSetsCommands: readonly CommandSpec[] = [
  write('zadd', -4),
  write('zincrby', 4),
  read('zscore', 3),
  read('zmscore', -3),
  read('zcard', 2),
  read('zcount', 4),
  read('zlexcount', 4),
  read('zrank', -3),
  read('zrevrank', -3),
  write('zrem', -3),
  read('zrange', -4),
  read('zrevrange', -4),
  read('zrangebyscore', -4),
  read('zrevrangebyscore', -4),
  read('zrangebylex', -4),
  read('zrevrangebylex', -4),
  command('zrangestore', -5, ['write'], [1, 2, 1]),
  write('zremrangebyrank', 4),
  write('zremrangebyscore', 4),
  write('zremrangebylex', 4),
  write('zpopmin', -2),
  write('zpopmax', -2),
  command('zmpop', -4, ['write'], NO_KEYS),
  read('zrandmember', -2),
  read('zscan', -3),
  // Set algebra names its keys with numkeys; these specs list no fixed key positions.
  command('zunion', -3, ['readonly'], NO_KEYS),
  command('zinter', -3, ['readonly'], NO_KEYS),
  command('zdiff', -3, ['readonly'], NO_KEYS),
  command('zunionstore', -4, ['write'], FIRST_KEY),
  command('zinterstore', -4, ['write'], FIRST_KEY),
  command('zdiffstore', -4, ['write'], FIRST_KEY),
  command('zintercard', -3, ['readonly'], NO_KEYS),
];
