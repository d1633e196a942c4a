// The streams family's command specs, with Redis 7.0's arities and flags (and Redis 8.2's for
// XDELEX and XACKDEL). XREAD and XREADGROUP name
// their keys after the STREAMS keyword, and are refused with BLOCK: the REST API does not block.
import type { CommandSpec } from '../command-table';
import { BLOCKING } from '../rest-policy';
import { command, container, FIRST_KEY } from './define';

const read = (name: string, arity: number) => command(name, arity, ['readonly'], FIRST_KEY);
const write = (name: string, arity: number) => command(name, arity, ['write'], FIRST_KEY);
/** XGROUP and XINFO subcommands take their key after the subcommand. */
const SECOND_KEY = [2, 2, 1] as const;

/** Whether XREAD/XREADGROUP's options, before the STREAMS keyword, ask to BLOCK. */
function blocksBeforeStreams(args: readonly string[]): boolean {
  for (let index = 1; index < args.length; index++) {
    const option = args[index].toLowerCase();
    if (option === 'streams') return false;
    if (option === 'block') return true;
    if (option === 'count') index++;
    else if (option === 'group') index += 2;
  }
  return false;
}

const blockingRead = (args: readonly string[]): string | undefined => (blocksBeforeStreams(args) ? BLOCKING : undefined);

export const streamsCommands: readonly CommandSpec[] = [
  write('xadd', -5),
  read('xlen', 2),
  read('xrange', -4),
  read('xrevrange', -4),
  command('xread', -4, ['readonly'], [0, 0, 0], { refusalFor: blockingRead }),
  command('xreadgroup', -7, ['write'], [0, 0, 0], { refusalFor: blockingRead }),
  write('xdel', -3),
  write('xtrim', -4),
  write('xsetid', -3),
  write('xack', -4),
  write('xdelex', -5),
  write('xackdel', -6),
  read('xpending', -3),
  write('xclaim', -6),
  write('xautoclaim', -6),
  container('xgroup', -2, [
    command('xgroup|create', -5, ['write'], SECOND_KEY),
    command('xgroup|setid', -5, ['write'], SECOND_KEY),
    command('xgroup|destroy', 4, ['write'], SECOND_KEY),
    command('xgroup|createconsumer', 5, ['write'], SECOND_KEY),
    command('xgroup|delconsumer', 5, ['write'], SECOND_KEY),
    command('xgroup|help', 2, []),
  ]),
  container('xinfo', -2, [
    command('xinfo|stream', -3, ['readonly'], SECOND_KEY),
    command('xinfo|groups', 3, ['readonly'], SECOND_KEY),
    command('xinfo|consumers', 4, ['readonly'], SECOND_KEY),
    command('xinfo|help', 2, []),
  ]),
];
