// The lists family's command specs (the non-blocking ones; connection.ts refuses the blocking ones).
import type { CommandSpec } from '../command-table';
import { command, FIRST_KEY, NO_KEYS } from './define';

const SOURCE_AND_DESTINATION = [1, 2, 1] as const;

export const listsCommands: readonly CommandSpec[] = [
  command('lpush', -3, ['write'], FIRST_KEY),
  command('rpush', -3, ['write'], FIRST_KEY),
  command('lpushx', -3, ['write'], FIRST_KEY),
  command('rpushx', -3, ['write'], FIRST_KEY),
  command('lpop', -2, ['write'], FIRST_KEY),
  command('rpop', -2, ['write'], FIRST_KEY),
  command('lmpop', -4, ['write'], NO_KEYS),
  command('llen', 2, ['readonly'], FIRST_KEY),
  command('lrange', 4, ['readonly'], FIRST_KEY),
  command('lindex', 3, ['readonly'], FIRST_KEY),
  command('lset', 4, ['write'], FIRST_KEY),
  command('lrem', 4, ['write'], FIRST_KEY),
  command('ltrim', 4, ['write'], FIRST_KEY),
  command('linsert', 5, ['write'], FIRST_KEY),
  command('lpos', -3, ['readonly'], FIRST_KEY),
  command('rpoplpush', 3, ['write'], SOURCE_AND_DESTINATION),
  command('lmove', 5, ['write'], SOURCE_AND_DESTINATION),
];
