// Commands that list key names: KEYS (glob), SCAN (cursor, MATCH, COUNT, TYPE, Upstash's WITHTYPE)
// and RANDOMKEY.
// SCAN cursors are the keyspace's creation sequence numbers (see Keyspace.scan).
import { array, bulk, bulkArray, bulkOrNil, type Reply } from '../../reply';
import { isErrorReply } from '../arguments';
import { compileGlob } from '../glob';
import type { CommandContext, CommandHandlers } from '../handler';
import { parseScanArguments } from '../scan-arguments';

function keys(args: readonly string[], ctx: CommandContext): Reply {
  // A lone `*` lists every key, the empty one too, as Redis's KEYS does.
  const glob = args[1] === '*' ? undefined : compileGlob(args[1]);
  const found: string[] = [];
  for (const key of ctx.db.keys(ctx.now)) if (!glob || glob.matches(key)) found.push(key);
  return bulkArray(found);
}

function scan(args: readonly string[], ctx: CommandContext): Reply {
  const options = parseScanArguments(args, 1, true);
  if (isErrorReply(options)) return options;
  const step = ctx.db.scan(options.cursor, options.count, ctx.now);
  const listed: string[] = [];
  for (const key of step.keys) {
    if (options.match !== undefined && !options.match.matches(key)) continue;
    const type = ctx.db.peek(key, ctx.now)?.type;
    // Redis 7.0 compares the type name case-insensitively (TYPE rejson-rl finds ReJSON-RL keys).
    if (type === undefined || (options.type !== undefined && type.toLowerCase() !== options.type)) continue;
    listed.push(key);
    if (options.withType) listed.push(type);
  }
  return array([bulk(String(step.cursor)), bulkArray(listed)]);
}

function randomkey(_args: readonly string[], ctx: CommandContext): Reply {
  return bulkOrNil(ctx.db.randomKey(ctx.now));
}

export const keyListingCommandHandlers: CommandHandlers = { keys, scan, randomkey };
