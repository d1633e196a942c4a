// Server and ACL command specs (TIME, INFO, DBSIZE, FLUSHDB, FLUSHALL, ACL ...).
// ACL RESTTOKEN is answered by the HTTP layer (it mints tokens); the engine only authenticates.
import type { CommandSpec } from '../command-table';
import { command, container } from './define';

export const serverCommands: readonly CommandSpec[] = [
  command('time', 1, []),
  command('dbsize', 1, ['readonly']),
  command('info', -1, []),
  command('flushdb', -1, ['write']),
  command('flushall', -1, ['write']),
  container('acl', -2, [
    command('acl|resttoken', 4, ['admin', 'noscript']),
    command('acl|setuser', -3, ['admin', 'noscript']),
    command('acl|deluser', -3, ['admin', 'noscript']),
    command('acl|users', 2, ['admin', 'noscript']),
    command('acl|list', 2, ['admin', 'noscript']),
    command('acl|whoami', 2, ['noscript']),
  ]),
];
