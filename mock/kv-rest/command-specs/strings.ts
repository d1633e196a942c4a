// The strings family's command specs, with Redis 7.0's arities and key positions.
import type { CommandSpec } from '../command-table';
import { ALL_KEYS, command, FIRST_KEY } from './define';

export const stringsCommands: readonly CommandSpec[] = [
  command('get', 2, ['readonly'], FIRST_KEY),
  command('set', -3, ['write'], FIRST_KEY),
  command('setex', 4, ['write'], FIRST_KEY),
  command('psetex', 4, ['write'], FIRST_KEY),
  command('setnx', 3, ['write'], FIRST_KEY),
  command('getset', 3, ['write'], FIRST_KEY),
  command('getex', -2, ['write'], FIRST_KEY),
  command('getdel', 2, ['write'], FIRST_KEY),
  command('mget', -2, ['readonly'], ALL_KEYS),
  command('mset', -3, ['write'], [1, -1, 2]),
  command('msetnx', -3, ['write'], [1, -1, 2]),
  command('incr', 2, ['write'], FIRST_KEY),
  command('decr', 2, ['write'], FIRST_KEY),
  command('incrby', 3, ['write'], FIRST_KEY),
  command('decrby', 3, ['write'], FIRST_KEY),
  command('incrbyfloat', 3, ['write'], FIRST_KEY),
  command('append', 3, ['write'], FIRST_KEY),
  command('strlen', 2, ['readonly'], FIRST_KEY),
  command('getrange', 4, ['readonly'], FIRST_KEY),
  command('substr', 4, ['readonly'], FIRST_KEY),
  command('setrange', 4, ['write'], FIRST_KEY),
];
