// The generic (keyspace) family's command specs. KEYS, SCAN and RANDOMKEY are powerful reads in the
// REST policy (rest-policy.ts): they disclose key names a public Read Only token's holder does not know.
import type { CommandSpec } from '../command-table';
import { ALL_KEYS, command, FIRST_KEY, NO_KEYS } from './define';

const SOURCE_AND_DESTINATION = [1, 2, 1] as const;

export const genericCommands: readonly CommandSpec[] = [
  command('del', -2, ['write'], ALL_KEYS),
  command('unlink', -2, ['write'], ALL_KEYS),
  command('exists', -2, ['readonly'], ALL_KEYS),
  command('touch', -2, ['readonly'], ALL_KEYS),
  command('type', 2, ['readonly'], FIRST_KEY),
  command('expire', -3, ['write'], FIRST_KEY),
  command('pexpire', -3, ['write'], FIRST_KEY),
  command('expireat', -3, ['write'], FIRST_KEY),
  command('pexpireat', -3, ['write'], FIRST_KEY),
  command('persist', 2, ['write'], FIRST_KEY),
  command('ttl', 2, ['readonly'], FIRST_KEY),
  command('pttl', 2, ['readonly'], FIRST_KEY),
  command('expiretime', 2, ['readonly'], FIRST_KEY),
  command('pexpiretime', 2, ['readonly'], FIRST_KEY),
  command('rename', 3, ['write'], SOURCE_AND_DESTINATION),
  command('renamenx', 3, ['write'], SOURCE_AND_DESTINATION),
  command('copy', -3, ['write'], SOURCE_AND_DESTINATION),
  command('keys', 2, ['readonly'], NO_KEYS),
  command('scan', -2, ['readonly'], NO_KEYS),
  command('randomkey', 1, ['readonly'], NO_KEYS),
];
