// XREAD and XREADGROUP, served synchronously. BLOCK never reaches here from a REST caller (the
// command table refuses it, as the REST API refuses blocking commands); should it come, the call
// answers at once, as Redis answers a client that may not block.
import { array, bulk, error, NULL_ARRAY, type ErrorReply, type Reply } from '../../reply';
import { isErrorReply, parseInteger, SYNTAX_ERROR } from '../arguments';
import type { CommandContext, CommandHandlers } from '../handler';
import type { StreamValue } from '../keyspace';
import type { ConsumerGroup, Stream, StreamEntry } from '../stream';
import { assignPending, consumerFor } from '../stream-consumers';
import { MAX_ID, parseStrictId, type StreamId } from '../stream-id';
import { boundedCount, entriesReply, noGroup, reserveEntries, streamAt, type ReadEntry } from './stream-values';

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
 * What one stream of the command answers, planned before anything moves: its entries (for a
 * consumer's history, `undefined` where an entry was deleted since) and what delivering them does.
 */
interface Planned {
  readonly key: string;
  readonly entries: readonly ReadEntry[];
  readonly deliver?: (ctx: CommandContext) => void;
}

/** A group's new entries for a consumer: moves the group's last ID and fills the pending lists. */
function deliverNew(stream: Stream, group: ConsumerGroup, consumerName: string, entries: readonly StreamEntry[], noAck: boolean, now: number): void {
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
}

/** A consumer's own history: its pending IDs after `after`, at most `count` (an absent consumer has none). */
function historyIds(group: ConsumerGroup, consumerName: string, after: StreamId, count: number): readonly StreamId[] {
  const pending = group.consumers.get(consumerName)?.pending;
  if (!pending) return [];
  const from = pending.firstAtOrAfter(after === MAX_ID ? 0n : after + 1n);
  return pending.ids().slice(from, from + count);
}

/** Delivering a consumer's history again: each entry still in the stream has its delivery time and count move on. */
function redeliver(group: ConsumerGroup, consumerName: string, entries: readonly ReadEntry[], now: number): void {
  const consumer = consumerFor(group, consumerName, now);
  for (const { id, fields } of entries) {
    const pending = fields && consumer.pending.get(id);
    if (pending) {
      pending.deliveryTime = now;
      pending.deliveryCount++;
    }
  }
}

/** What `source` answers, or undefined when it answers nothing (the stream is left out of the reply). */
function plan(source: Source, parsed: ReadArguments, count: number, newPlanned: Set<ConsumerGroup>): Planned | undefined {
  const { key, value, group, from } = source;
  if (!value) return undefined;
  const { stream } = value;
  const reader = parsed.group;
  if (group && reader) {
    if (from !== 'new') {
      const entries = historyIds(group, reader.consumer, from.after, count).map((id): ReadEntry => stream.get(id) ?? { id });
      return { key, entries, deliver: ({ now }) => redeliver(group, reader.consumer, entries, now) };
    }
    // A stream named twice: the first delivers its new entries, so the second has none, as in Redis.
    if (newPlanned.has(group) || stream.length === 0 || stream.lastLiveId() <= group.lastId) return undefined;
    newPlanned.add(group);
    const entries = stream.range(group.lastId + 1n, MAX_ID, count);
    return { key, entries, deliver: ({ now }) => deliverNew(stream, group, reader.consumer, entries, parsed.noAck, now) };
  }
  if (from === 'new' || stream.length === 0 || stream.lastLiveId() <= from.after) return undefined;
  return { key, entries: stream.range(from.after + 1n, MAX_ID, count) };
}

/** `[key, [[id, fields] | [id, nil], ...]]` for one planned stream. */
const plannedReply = ({ key, entries }: Planned): Reply => array([bulk(key), entriesReply(entries)]);

function xread(forGroup: boolean) {
  return (args: readonly string[], ctx: CommandContext): Reply => {
    const parsed = parseReadArguments(args, forGroup);
    if (isErrorReply(parsed)) return parsed;
    const sources = resolveSources(args, parsed, ctx);
    if (isErrorReply(sources)) return sources;
    // Every stream's part of the reply is reserved before the next is read and before anything is
    // delivered, so many streams (or one named 20,000 times) stop at the bound and a refused read
    // changes nothing (issue 25, finding 2).
    const planned: Planned[] = [];
    const newPlanned = new Set<ConsumerGroup>();
    for (const source of sources) {
      const part = plan(source, parsed, boundedCount(parsed.count, ctx), newPlanned);
      if (!part) continue;
      const refused = ctx.reserveReply(3, part.key.length) ?? reserveEntries(part.entries, ctx);
      if (refused) return refused;
      planned.push(part);
    }
    if (planned.length === 0) return NULL_ARRAY;
    for (const part of planned) part.deliver?.(ctx);
    return array(planned.map(plannedReply));
  };
}

export const streamReadHandlers: CommandHandlers = {
  xread: xread(false),
  xreadgroup: xread(true),
};
