// XREAD and XREADGROUP, served synchronously. BLOCK never reaches here from a REST caller (the
// command table refuses it, as the REST API refuses blocking commands); should it come, the call
// answers at once, as Redis answers a client that may not block.
import { array, bulk, error, NULL_ARRAY, type ErrorReply, type Reply } from '../../reply';
import { isErrorReply, parseInteger, SYNTAX_ERROR } from '../arguments';
import type { CommandContext, CommandHandlers } from '../handler';
import type { StreamValue } from '../keyspace';
import type { ConsumerGroup, Stream, StreamEntry } from '../stream';
import { refuseReply } from '../reply-limits';
import { assignPending, consumerFor } from '../stream-consumers';
import { MAX_ID, parseStrictId, type StreamId } from '../stream-id';
import { boundedCount, entriesReply, entryReply, idReply, noGroup, streamAt } from './stream-values';

interface ReadArguments {
  readonly count: number;
  readonly noAck: boolean;
  readonly group?: { readonly name: string; readonly consumer: string };
  /** Position of the first key, after STREAMS. */
  readonly keysAt: number;
  readonly streams: number;
}

function parseReadArguments(args: readonly string[], forGroup: boolean): ReadArguments | ErrorReply {
  let count = 0;
  let noAck = false;
  let group: ReadArguments['group'];
  for (let index = 1; index < args.length; index++) {
    const more = args.length - index - 1;
    const option = args[index].toLowerCase();
    if (option === 'block' && more) {
      const timeout = parseInteger(args[++index]);
      if (isErrorReply(timeout)) return error('ERR timeout is not an integer or out of range');
      if (timeout < 0) return error('ERR timeout is negative');
    } else if (option === 'count' && more) {
      const parsed = parseInteger(args[++index]);
      if (isErrorReply(parsed)) return parsed;
      count = Math.max(parsed, 0);
    } else if (option === 'streams' && more) {
      const keysAt = index + 1;
      if ((args.length - keysAt) % 2 !== 0) {
        return error("ERR Unbalanced XREAD list of streams: for each stream key an ID or '$' must be specified.");
      }
      if (forGroup && !group) return error('ERR Missing GROUP option for XREADGROUP');
      return { count, noAck, group, keysAt, streams: (args.length - keysAt) / 2 };
    } else if (option === 'group' && more >= 2) {
      if (!forGroup) return error('ERR The GROUP option is only supported by XREADGROUP. You called XREAD instead.');
      group = { name: args[index + 1], consumer: args[index + 2] };
      index += 2;
    } else if (option === 'noack') {
      if (!forGroup) return error('ERR The NOACK option is only supported by XREADGROUP. You called XREAD instead.');
      noAck = true;
    } else return SYNTAX_ERROR;
  }
  return SYNTAX_ERROR;
}

/** Where each stream is read from: after an ID, or `>` (new entries for the group). */
type ReadFrom = { readonly after: StreamId } | 'new';

interface Source {
  readonly key: string;
  readonly value: StreamValue | undefined;
  readonly group: ConsumerGroup | undefined;
  readonly from: ReadFrom;
}

function resolveSources(args: readonly string[], parsed: ReadArguments, ctx: CommandContext): Source[] | ErrorReply {
  const sources: Source[] = [];
  for (let position = 0; position < parsed.streams; position++) {
    const key = args[parsed.keysAt + position];
    const idText = args[parsed.keysAt + parsed.streams + position];
    const value = streamAt(ctx, key);
    if (isErrorReply(value)) return value;
    let group: ConsumerGroup | undefined;
    if (parsed.group) {
      group = value?.stream.groups.get(parsed.group.name);
      if (!group) return noGroup(`No such key '${key}' or consumer group '${parsed.group.name}' in XREADGROUP with GROUP option`);
    }
    let from: ReadFrom;
    if (idText === '$') {
      if (parsed.group) {
        return error(
          'ERR The $ ID is meaningless in the context of XREADGROUP: you want to read the history of this consumer by specifying a proper ID, or use the > ID to get new messages. The $ ID would just return an empty result set.',
        );
      }
      from = { after: value?.stream.lastId ?? 0n };
    } else if (idText === '>') {
      if (!parsed.group) return error('ERR The > ID can be specified only when calling XREADGROUP using the GROUP <group> <consumer> option.');
      from = 'new';
    } else {
      const id = parseStrictId(idText);
      if (isErrorReply(id)) return id;
      from = { after: id };
    }
    sources.push({ key, value, group, from });
  }
  return sources;
}

/**
 * Delivers new entries to a group's consumer: moves the group's last ID and fills the pending lists.
 * A reply past the reply bound is refused before anything moves, so no entry is delivered unseen.
 */
function deliverNew(stream: Stream, group: ConsumerGroup, consumerName: string, count: number, noAck: boolean, ctx: CommandContext): Reply {
  const { now } = ctx;
  const entries = stream.range(group.lastId + 1n, MAX_ID, count);
  const reply = entriesReply(entries);
  const refused = refuseReply(reply, ctx.replyLimits);
  if (refused) return refused;
  const consumer = consumerFor(group, consumerName, now);
  for (const entry of entries) {
    if (group.entriesRead !== undefined && !stream.hasTombstonesFrom(entry.id)) group.entriesRead++;
    else if (stream.entriesAdded) group.entriesRead = stream.readCounterOf(entry.id);
    group.lastId = entry.id;
    if (noAck) continue;
    const pending = group.pending.get(entry.id);
    if (pending) {
      pending.deliveryTime = now;
      pending.deliveryCount = 1;
      assignPending(entry.id, pending, consumer);
    } else {
      const created = { consumer, deliveryTime: now, deliveryCount: 1 };
      group.pending.set(entry.id, created);
      consumer.pending.set(entry.id, created);
    }
  }
  return reply;
}

/** A consumer's own history: its pending entries after `after`; deleted entries come as `[id, nil]`. */
function deliverHistory(stream: Stream, group: ConsumerGroup, consumerName: string, after: StreamId, count: number, now: number): Reply {
  const consumer = consumerFor(group, consumerName, now);
  const ids = consumer.pending.ids();
  const items: Reply[] = [];
  for (let index = consumer.pending.firstAtOrAfter(after === MAX_ID ? 0n : after + 1n); index < ids.length && items.length < count; index++) {
    const id = ids[index];
    const entry: StreamEntry | undefined = stream.get(id);
    if (!entry) {
      items.push(array([idReply(id), NULL_ARRAY]));
      continue;
    }
    const pending = consumer.pending.get(id);
    if (pending) {
      pending.deliveryTime = now;
      pending.deliveryCount++;
    }
    items.push(entryReply(entry));
  }
  return array(items);
}

function xread(forGroup: boolean) {
  return (args: readonly string[], ctx: CommandContext): Reply => {
    const parsed = parseReadArguments(args, forGroup);
    if (isErrorReply(parsed)) return parsed;
    const sources = resolveSources(args, parsed, ctx);
    if (isErrorReply(sources)) return sources;
    const count = boundedCount(parsed.count, ctx.replyLimits);
    const served: Reply[] = [];
    for (const { key, value, group, from } of sources) {
      if (!value) continue;
      const { stream } = value;
      let reply: Reply | undefined;
      if (group && parsed.group) {
        if (from !== 'new') reply = deliverHistory(stream, group, parsed.group.consumer, from.after, count, ctx.now);
        else if (stream.length > 0 && stream.lastLiveId() > group.lastId) reply = deliverNew(stream, group, parsed.group.consumer, count, parsed.noAck, ctx);
      } else if (from !== 'new' && stream.length > 0 && stream.lastLiveId() > from.after) {
        reply = entriesReply(stream.range(from.after + 1n, MAX_ID, count));
      }
      if (reply?.kind === 'error') return reply;
      if (reply) served.push(array([bulk(key), reply]));
    }
    return served.length > 0 ? array(served) : NULL_ARRAY;
  };
}

export const streamReadHandlers: CommandHandlers = {
  xread: xread(false),
  xreadgroup: xread(true),
};
