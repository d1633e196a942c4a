// XINFO STREAM (plain and FULL), XINFO GROUPS and XINFO CONSUMERS, as Redis 7.0 answers them over
// RESP2 (maps as flat arrays). `radix-tree-nodes` counts Redis's radix tree's internal nodes, which
// the memory engine does not have: it answers the number of entry nodes there (see docs/known-differences.md).
import { unknownSubcommandOrArityText } from '../../command-table';
import { array, bulk, error, integer, NIL, type ErrorReply, type Reply } from '../../reply';
import { isErrorReply, parseInteger } from '../arguments';
import type { CommandContext, CommandHandlers } from '../handler';
import type { StreamValue } from '../keyspace';
import { byName, type ConsumerGroup, type Stream } from '../stream';
import { MAX_ID } from '../stream-id';
import { boundedCount, entriesReply, entryReply, idReply, noGroup, streamAt } from './stream-values';

const NO_SUCH_KEY = error('ERR no such key');

const map = (pairs: readonly (readonly [string, Reply])[]): Reply => array(pairs.flatMap(([name, value]) => [bulk(name), value]));
const counter = (value: bigint | undefined): Reply => (value === undefined ? NIL : integer(value));

function existingStream(ctx: CommandContext, key: string): StreamValue | ErrorReply {
  const value = streamAt(ctx, key);
  return value ?? NO_SUCH_KEY;
}

function streamHeader(stream: Stream): [string, Reply][] {
  return [
    ['length', integer(stream.length)],
    ['radix-tree-keys', integer(stream.nodeCount)],
    ['radix-tree-nodes', integer(stream.nodeCount)],
    ['last-generated-id', idReply(stream.lastId)],
    ['max-deleted-entry-id', idReply(stream.maxDeletedId)],
    ['entries-added', integer(stream.entriesAdded)],
    ['recorded-first-entry-id', idReply(stream.firstId)],
  ];
}

function fullGroup(stream: Stream, name: string, group: ConsumerGroup, count: number): Reply {
  const pendingIds = group.pending.ids().slice(0, count);
  return map([
    ['name', bulk(name)],
    ['last-delivered-id', idReply(group.lastId)],
    ['entries-read', counter(group.entriesRead)],
    ['lag', counter(stream.lagOf(group))],
    ['pel-count', integer(group.pending.size)],
    [
      'pending',
      array(
        pendingIds.map((id) => {
          const entry = group.pending.get(id);
          return array([idReply(id), bulk(entry?.consumer?.name ?? ''), integer(entry?.deliveryTime ?? 0), integer(entry?.deliveryCount ?? 0)]);
        }),
      ),
    ],
    [
      'consumers',
      array(
        byName(group.consumers).map(([consumerName, consumer]) =>
          map([
            ['name', bulk(consumerName)],
            ['seen-time', integer(consumer.seenTime)],
            ['pel-count', integer(consumer.pending.size)],
            [
              'pending',
              array(
                consumer.pending
                  .ids()
                  .slice(0, count)
                  .map((id) => {
                    const entry = consumer.pending.get(id);
                    return array([idReply(id), integer(entry?.deliveryTime ?? 0), integer(entry?.deliveryCount ?? 0)]);
                  }),
              ),
            ],
          ]),
        ),
      ),
    ],
  ]);
}

const subcommandSyntaxError = (args: readonly string[]): ErrorReply =>
  error(unknownSubcommandOrArityText(args[1], 'xinfo'));

function xinfoStream(args: readonly string[], ctx: CommandContext): Reply {
  const value = existingStream(ctx, args[2]);
  if (isErrorReply(value)) return value;
  const { stream } = value;
  if (args.length === 3) {
    const first = stream.range(0n, MAX_ID, 1)[0];
    const last = stream.range(0n, MAX_ID, 1, true)[0];
    return map([
      ...streamHeader(stream),
      ['groups', integer(stream.groups.size)],
      ['first-entry', first ? entryReply(first) : NIL],
      ['last-entry', last ? entryReply(last) : NIL],
    ]);
  }
  if ((args.length !== 4 && args.length !== 6) || args[3].toLowerCase() !== 'full') return subcommandSyntaxError(args);
  let count = 10;
  if (args.length === 6) {
    if (args[4].toLowerCase() !== 'count') return subcommandSyntaxError(args);
    const parsed = parseInteger(args[5]);
    if (isErrorReply(parsed)) return parsed;
    count = parsed < 0 ? 10 : parsed;
  }
  const bounded = boundedCount(count, ctx);
  return map([
    ...streamHeader(stream),
    ['entries', entriesReply(stream.range(0n, MAX_ID, bounded))],
    ['groups', array(byName(stream.groups).map(([name, group]) => fullGroup(stream, name, group, bounded)))],
  ]);
}

function xinfoGroups(args: readonly string[], ctx: CommandContext): Reply {
  const value = existingStream(ctx, args[2]);
  if (isErrorReply(value)) return value;
  const { stream } = value;
  return array(
    byName(stream.groups).map(([name, group]) =>
      map([
        ['name', bulk(name)],
        ['consumers', integer(group.consumers.size)],
        ['pending', integer(group.pending.size)],
        ['last-delivered-id', idReply(group.lastId)],
        ['entries-read', counter(group.entriesRead)],
        ['lag', counter(stream.lagOf(group))],
      ]),
    ),
  );
}

function xinfoConsumers(args: readonly string[], ctx: CommandContext): Reply {
  const value = existingStream(ctx, args[2]);
  if (isErrorReply(value)) return value;
  const group = value.stream.groups.get(args[3]);
  if (!group) return noGroup(`No such consumer group '${args[3]}' for key name '${args[2]}'`);
  return array(
    byName(group.consumers).map(([name, consumer]) =>
      map([
        ['name', bulk(name)],
        ['pending', integer(consumer.pending.size)],
        ['idle', integer(Math.max(ctx.now - consumer.seenTime, 0))],
      ]),
    ),
  );
}

export const streamInfoHandlers: CommandHandlers = {
  'xinfo|stream': xinfoStream,
  'xinfo|groups': xinfoGroups,
  'xinfo|consumers': xinfoConsumers,
};
