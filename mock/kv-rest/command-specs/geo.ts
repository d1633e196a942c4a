// The geo family's command specs, with Redis 7.0's arities and flags. GEORADIUS and
// GEORADIUSBYMEMBER write when given STORE or STOREDIST, whose key Redis's key specs find.
import type { CommandSpec } from '../command-table';
import { command, FIRST_KEY } from './define';

const read = (name: string, arity: number) => command(name, arity, ['readonly'], FIRST_KEY);

export const geoCommands: readonly CommandSpec[] = [
  command('geoadd', -5, ['write'], FIRST_KEY),
  read('geodist', -4),
  read('geohash', -2),
  read('geopos', -2),
  command('georadius', -6, ['write'], FIRST_KEY),
  read('georadius_ro', -6),
  command('georadiusbymember', -5, ['write'], FIRST_KEY),
  read('georadiusbymember_ro', -5),
  read('geosearch', -7),
  command('geosearchstore', -8, ['write'], [1, 2, 1]),
];
