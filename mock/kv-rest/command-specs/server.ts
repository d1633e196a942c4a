// Server and ACL command specs (TIME, INFO, DBSIZE, FLUSHDB, FLUSHALL, ACL, OBJECT, MEMORY USAGE ...);
// the other MEMORY subcommands come from Redis's metadata and the REST policy refuses them.
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
  container('object', -2, [
    command('object|encoding', 3, ['readonly'], [2, 2, 1]),
    command('object|refcount', 3, ['readonly'], [2, 2, 1]),
    command('object|idletime', 3, ['readonly'], [2, 2, 1]),
    command('object|freq', 3, ['readonly'], [2, 2, 1]),
    command('object|help', 2, []),
  ]),
  container('memory', -2, [command('memory|usage', -3, ['readonly'], [2, 2, 1]), command('memory|help', 2, [])]),
];
