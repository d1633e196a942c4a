// The bitmaps family's command specs, with Redis 7.0's arities and key positions.
import type { CommandSpec } from '../command-table';
import { command, FIRST_KEY } from './define';

export const bitmapsCommands: readonly CommandSpec[] = [
  command('setbit', 4, ['write'], FIRST_KEY),
  command('getbit', 3, ['readonly'], FIRST_KEY),
  command('bitcount', -2, ['readonly'], FIRST_KEY),
  command('bitpos', -3, ['readonly'], FIRST_KEY),
  command('bitop', -4, ['write'], [2, -1, 1]),
  command('bitfield', -2, ['write'], FIRST_KEY),
  command('bitfield_ro', -2, ['readonly'], FIRST_KEY),
];
