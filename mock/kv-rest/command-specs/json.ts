// The RedisJSON 2.x commands (the JSON family the hosted platform serves), with RedisJSON's own
// arities and its read/write flags: the Read Only token may run the reads (JSON.GET, JSON.MGET,
// JSON.TYPE ...) and not the writes. Redis 7.0's metadata has no module commands, so the key
// positions are written here too (JSON.MGET's keys run up to the path; JSON.MSET's every third).
import type { CommandSpec } from '../command-table';
import { command, container, FIRST_KEY } from './define';

const read = (name: string, arity: number) => command(name, arity, ['readonly'], FIRST_KEY);
const write = (name: string, arity: number) => command(name, arity, ['write'], FIRST_KEY);

export const jsonCommands: readonly CommandSpec[] = [
  read('json.get', -2),
  command('json.mget', -3, ['readonly'], [1, -2, 1]),
  read('json.type', -2),
  read('json.strlen', -2),
  read('json.arrlen', -2),
  read('json.arrindex', -4),
  read('json.objkeys', -2),
  read('json.objlen', -2),
  read('json.resp', -2),
  // JSON.DEBUG MEMORY <key> names its key after the subcommand word; JSON.DEBUG HELP has none.
  container('json.debug', -2, [command('json.debug|memory', -3, ['readonly'], [2, 2, 1]), command('json.debug|help', 2, ['readonly'])]),
  write('json.set', -4),
  command('json.mset', -4, ['write'], [1, -1, 3]),
  write('json.merge', -4),
  write('json.del', -2),
  write('json.forget', -2),
  write('json.clear', -2),
  write('json.toggle', 3),
  write('json.numincrby', 4),
  write('json.nummultby', 4),
  write('json.strappend', -3),
  write('json.arrappend', -4),
  write('json.arrinsert', -5),
  write('json.arrpop', -2),
  write('json.arrtrim', 5),
];
