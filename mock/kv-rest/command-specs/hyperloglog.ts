// The HyperLogLog family's command specs, with Redis 7.0's arities and key positions.
import type { CommandSpec } from '../command-table';
import { ALL_KEYS, command, FIRST_KEY } from './define';

export const hyperloglogCommands: readonly CommandSpec[] = [
  command('pfadd', -2, ['write'], FIRST_KEY),
  command('pfcount', -2, ['readonly'], ALL_KEYS),
  command('pfmerge', -2, ['write'], ALL_KEYS),
];
