// Server and ACL command specs (TIME, INFO, DBSIZE, FLUSHDB, FLUSHALL, ACL ...).
import { command, container } from './define';
import type { CommandSpec } from '../command-table';

export const serverCommands: readonly CommandSpec[] = [
  container('acl', -2, [
    command('acl|restoken', 4, ['admin', 'noscript']),
    command('acl|setuser', -3, ['admin', 'noscript']),
    command('acl|deluser', -3, ['admin', 'noscript']),
    command('acl|users', 2, ['admin', 'noscript']),
    command('acl|whoami', 2, ['noscript']),
  ]),
];
