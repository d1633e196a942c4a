// XGROUP HELP and XINFO HELP: Redis 7.0's help lines, framed as its addReplyHelp frames every
// container's help (a heading naming the command, the lines, then HELP itself), as simple strings.
import { array, simple, type Reply } from '../../reply';
import type { CommandHandlers } from '../handler';

const XGROUP_HELP = [
  'CREATE <key> <groupname> <id|$> [option]',
  '    Create a new consumer group. Options are:',
  '    * MKSTREAM',
  '      Create the empty stream if it does not exist.',
  '    * ENTRIESREAD entries_read',
  "      Set the group's entries_read counter (internal use).",
  'CREATECONSUMER <key> <groupname> <consumer>',
  '    Create a new consumer in the specified group.',
  'DELCONSUMER <key> <groupname> <consumer>',
  '    Remove the specified consumer.',
  'DESTROY <key> <groupname>',
  '    Remove the specified group.',
  'SETID <key> <groupname> <id|$> [ENTRIESREAD entries_read]',
  '    Set the current group ID and entries_read counter.',
];

const XINFO_HELP = [
  'CONSUMERS <key> <groupname>',
  '    Show consumers of <groupname>.',
  'GROUPS <key>',
  '    Show the stream consumer groups.',
  'STREAM <key> [FULL [COUNT <count>]',
  '    Show information about the stream.',
];

function help(lines: readonly string[]) {
  return (args: readonly string[]): Reply =>
    array([`${args[0].toUpperCase()} <subcommand> [<arg> [value] [opt] ...]. Subcommands are:`, ...lines, 'HELP', '    Prints this help.'].map(simple));
}

export const streamHelpHandlers: CommandHandlers = { 'xgroup|help': help(XGROUP_HELP), 'xinfo|help': help(XINFO_HELP) };
