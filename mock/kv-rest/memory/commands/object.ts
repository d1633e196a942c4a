// OBJECT ENCODING/REFCOUNT/IDLETIME/FREQ/HELP and MEMORY USAGE/HELP on the memory engine. The
// engine has no Redis objects, so each answer is what Redis 7.0 would say for the value: the
// encoding its default thresholds would pick (object-encoding.ts), the shared integers' refcount,
// the seconds since the key was last looked up or written, the LFU error of a server without an LFU
// eviction policy (Redis's default, and the memory engine never evicts), and an estimate of the
// bytes used (memory-usage.ts). None of them counts as an access, as in Redis.
import { array, bulk, error, integer, NIL, simple, type Reply } from '../../reply';
import { isErrorReply, parseInteger, SYNTAX_ERROR } from '../arguments';
import type { CommandContext, CommandHandlers } from '../handler';
import type { StoredValue } from '../keyspace';
import { memoryUsage } from '../memory-usage';
import { encodingOf, refcountOf } from '../object-encoding';

const NO_LFU = error(
  'ERR An LFU maxmemory policy is not selected, access frequency not tracked. Please note that when switching between policies at runtime LRU and LFU data will take some time to adjust.',
);

/** Redis's default number of elements MEMORY USAGE samples in a collection. */
const DEFAULT_SAMPLES = 5;

const help = (command: string, lines: readonly string[]): Reply =>
  array([`${command} <subcommand> [<arg> [value] [opt] ...]. Subcommands are:`, ...lines, 'HELP', '    Prints this help.'].map(simple));

const OBJECT_HELP = help('OBJECT', [
  'ENCODING <key>',
  '    Return the kind of internal representation used in order to store the value',
  '    associated with a <key>.',
  'FREQ <key>',
  '    Return the access frequency index of the <key>. The returned integer is',
  '    proportional to the logarithm of the recent access frequency of the key.',
  'IDLETIME <key>',
  '    Return the idle time of the <key>, that is the approximated number of',
  '    seconds elapsed since the last access to the key.',
  'REFCOUNT <key>',
  '    Return the number of references of the value associated with the specified',
  '    <key>.',
]);

const MEMORY_HELP = help('MEMORY', [
  'DOCTOR',
  '    Return memory problems reports.',
  'MALLOC-STATS',
  '    Return internal statistics report from the memory allocator.',
  'PURGE',
  '    Attempt to purge dirty pages for reclamation by the allocator.',
  'STATS',
  '    Return information about the memory usage of the server.',
  'USAGE <key> [SAMPLES <count>]',
  '    Return memory in bytes used by <key> and its value. Nested values are',
  '    sampled up to <count> times (default: 5, 0 means sample all).',
]);

/** An OBJECT subcommand on the key's value; nil when the key does not exist. */
function objectOf(answer: (value: StoredValue, ctx: CommandContext) => Reply) {
  return (args: readonly string[], ctx: CommandContext): Reply => {
    const value = ctx.db.peek(args[2], ctx.now);
    return value === undefined ? NIL : answer(value, ctx);
  };
}

function memoryUsageCommand(args: readonly string[], ctx: CommandContext): Reply {
  let samples = DEFAULT_SAMPLES;
  for (let index = 3; index < args.length; index++) {
    if (args[index].toLowerCase() !== 'samples' || index + 1 >= args.length) return SYNTAX_ERROR;
    const count = parseInteger(args[++index]);
    if (isErrorReply(count)) return count;
    if (count < 0) return SYNTAX_ERROR;
    samples = count;
  }
  const value = ctx.db.peek(args[2], ctx.now);
  return value === undefined ? NIL : integer(memoryUsage(args[2], value, samples));
}

export const objectCommandHandlers: CommandHandlers = {
  'object|encoding': objectOf((value) => bulk(encodingOf(value))),
  'object|refcount': objectOf((value) => integer(refcountOf(value))),
  // Redis's access clock ticks in whole seconds: idle time is the difference of two such ticks.
  'object|idletime': objectOf((value, ctx) => integer(Math.floor(ctx.now / 1000) - Math.floor((ctx.now - ctx.db.idleMs(value, ctx.now)) / 1000))),
  'object|freq': objectOf(() => NO_LFU),
  'object|help': () => OBJECT_HELP,
  'memory|usage': memoryUsageCommand,
  'memory|help': () => MEMORY_HELP,
};
