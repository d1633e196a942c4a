// Shared pieces of the stream commands: finding the stream at a key, replying entries as Redis
// does (`[id, [field, value ...]]`), and XADD/XTRIM's trimming options.
import { array, bulk, bulkArray, error, NULL_ARRAY, type ErrorReply, type Reply } from '../../reply';
import { isErrorReply, parseInteger, SYNTAX_ERROR } from '../arguments';
import type { CommandContext } from '../handler';
import type { StreamValue } from '../keyspace';
import { Stream, type StreamEntry, type TrimOptions, type TrimStrategy } from '../stream';
import { formatId, parseStreamId, parseStrictId, type StreamId } from '../stream-id';

export function streamAt(ctx: CommandContext, key: string): StreamValue | undefined | ErrorReply {
  return ctx.db.lookupTyped(key, 'stream', ctx.now);
}

export function createStream(ctx: CommandContext, key: string): StreamValue {
  const created: StreamValue = { type: 'stream', stream: new Stream() };
  ctx.db.set(key, created);
  return created;
}

/** An entry as a read answers it; without fields when it was deleted while pending (a history read answers `[id, nil]`). */
export interface ReadEntry {
  readonly id: StreamId;
  readonly fields?: readonly string[];
}

export const entryReply = ({ id, fields }: ReadEntry): Reply => array([bulk(formatId(id)), fields ? bulkArray(fields) : NULL_ARRAY]);
export const entriesReply = (entries: readonly ReadEntry[]): Reply => array(entries.map(entryReply));

/**
 * Reserves the reply of `entries` (see CommandContext.reserveReply) before it is built: each is an
 * item of its list, holding an ID and its fields (the ID's bytes are counted once it is built).
 */
export function reserveEntries(entries: readonly ReadEntry[], ctx: CommandContext): ErrorReply | undefined {
  let elements = entries.length * 3;
  let bytes = 0;
  for (const { fields } of entries) {
    if (!fields) continue;
    elements += fields.length;
    for (const field of fields) bytes += field.length;
  }
  return ctx.reserveReply(elements, bytes);
}

/** `entries` as a reply once reserved, or the error of the bound they would pass. */
export const reservedEntriesReply = (entries: readonly ReadEntry[], ctx: CommandContext): Reply => reserveEntries(entries, ctx) ?? entriesReply(entries);
export const idReply = (id: StreamId): Reply => bulk(formatId(id));

/**
 * A count of 0 means "all" to the stream commands; the walk stops one entry past what the reply may
 * still hold, so that a huge stream is never copied whole only to be refused.
 */
export function boundedCount(count: number, ctx: CommandContext): number {
  const cap = Math.max(ctx.replyElementsLeft, 0) + 1;
  return count > 0 ? Math.min(count, cap) : cap;
}

/** A group's `-NOGROUP` error in the wording each command uses. */
export const noGroup = (text: string): ErrorReply => error(`NOGROUP ${text}`);

export interface AddOrTrimArguments {
  readonly trim?: TrimOptions;
  readonly noMakeStream: boolean;
  /** Position of XADD's ID argument. */
  readonly idIndex: number;
  readonly id?: { readonly id: StreamId; readonly seqGiven: boolean };
}

const BOTH_STRATEGIES = error('ERR syntax error, MAXLEN and MINID options at the same time are not compatible');

/** Redis's streamParseAddOrTrimArgsOrReply, for XADD (`forAdd`) and XTRIM, with its error order. */
export function parseAddOrTrim(args: readonly string[], forAdd: boolean): AddOrTrimArguments | ErrorReply {
  let strategy: TrimStrategy | undefined;
  let approximate = false;
  let limit: number | undefined;
  let noMakeStream = false;
  let id: AddOrTrimArguments['id'];
  let index = 2;
  for (; index < args.length; index++) {
    const more = args.length - 1 - index;
    const option = args[index].toLowerCase();
    if (forAdd && args[index] === '*') break;
    if ((option === 'maxlen' || option === 'minid') && more) {
      if (strategy) return BOTH_STRATEGIES;
      approximate = false;
      const next = args[index + 1];
      if (more >= 2 && (next === '~' || next === '=')) {
        approximate = next === '~';
        index++;
      }
      if (option === 'maxlen') {
        const maxLength = parseInteger(args[index + 1]);
        if (isErrorReply(maxLength)) return maxLength;
        if (maxLength < 0) return error('ERR The MAXLEN argument must be >= 0.');
        strategy = { kind: 'maxlen', maxLength };
      } else {
        const minId = parseStrictId(args[index + 1]);
        if (isErrorReply(minId)) return minId;
        strategy = { kind: 'minid', minId };
      }
      index++;
    } else if (option === 'limit' && more) {
      const parsed = parseInteger(args[index + 1]);
      if (isErrorReply(parsed)) return parsed;
      if (parsed < 0) return error('ERR The LIMIT argument must be >= 0.');
      limit = parsed;
      index++;
    } else if (forAdd && option === 'nomkstream') {
      noMakeStream = true;
    } else if (forAdd) {
      const parsed = parseStreamId(args[index], { strict: true, allowAutoSeq: true });
      if (isErrorReply(parsed)) return parsed;
      id = parsed;
      break;
    } else return SYNTAX_ERROR;
  }
  if (limit && !strategy) return error('ERR syntax error, LIMIT cannot be used without specifying a trimming strategy');
  if (!forAdd && !strategy) return error('ERR syntax error, XTRIM must be called with a trimming strategy');
  if (limit !== undefined && !approximate) return error('ERR syntax error, LIMIT cannot be used without the special ~ option');
  // Without LIMIT, `~` trims at most 100 nodes' worth (100 x stream-node-max-entries), as Redis does.
  const trim = strategy && { strategy, approximate, limit: limit ?? (approximate ? 10_000 : 0) };
  return { trim, noMakeStream, idIndex: index, id };
}
