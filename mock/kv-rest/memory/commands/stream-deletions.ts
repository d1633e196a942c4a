// Redis 8.2's XDELEX and XACKDEL: deleting stream entries with a policy for the consumer groups'
// references to them. KEEPREF (the default) deletes as XDEL does and leaves the references; DELREF
// also removes the entries from every group's pending list; ACKED deletes only entries every group
// has read and acknowledged. Each ID answers -1 (not in the stream, or for XACKDEL not pending in
// the group), 1 (deleted) or 2 (kept, still referenced: ACKED only).
import { array, error, integer, type ErrorReply, type Reply } from '../../reply';
import { isErrorReply, parseInteger, SYNTAX_ERROR } from '../arguments';
import type { CommandContext, CommandHandlers } from '../handler';
import type { Stream } from '../stream';
import { dropPending } from '../stream-consumers';
import { parseStrictId, type StreamId } from '../stream-id';
import { streamAt } from './stream-values';

type Policy = 'keepref' | 'delref' | 'acked';
const POLICIES: ReadonlySet<string> = new Set<Policy>(['keepref', 'delref', 'acked']);

const NOT_FOUND = -1;
const DELETED = 1;
const STILL_REFERENCED = 2;

interface DeletionArguments {
  readonly policy: Policy;
  readonly ids: readonly StreamId[];
}

/** `[KEEPREF|DELREF|ACKED] IDS numids id ...` from `at`, in either order, each once. */
function parseDeletion(args: readonly string[], at: number): DeletionArguments | ErrorReply {
  let policy: Policy | undefined;
  let texts: readonly string[] | undefined;
  for (let index = at; index < args.length; ) {
    const word = args[index].toLowerCase();
    if (policy === undefined && POLICIES.has(word)) {
      policy = word as Policy;
      index++;
    } else if (word === 'ids' && index + 1 < args.length) {
      const count = parseInteger(args[index + 1]);
      if (isErrorReply(count) || count < 1) return error('ERR Number of IDs must be a positive integer');
      if (count > args.length - index - 2) return error('ERR The `numids` parameter must match the number of arguments');
      texts = args.slice(index + 2, index + 2 + count);
      index += 2 + count;
    } else return SYNTAX_ERROR;
  }
  if (texts === undefined) return error('ERR IDS option is required');
  const ids: StreamId[] = [];
  for (const text of texts) {
    const id = parseStrictId(text);
    if (isErrorReply(id)) return id;
    ids.push(id);
  }
  return { policy: policy ?? 'keepref', ids };
}

/** Whether a group has yet to read the entry, or has it pending. */
function referenced(stream: Stream, id: StreamId): boolean {
  for (const group of stream.groups.values()) if (id > group.lastId || group.pending.get(id) !== undefined) return true;
  return false;
}

/** Deletes the entry per the policy; true when it was in the stream. */
function deleteEntry(stream: Stream, id: StreamId, policy: Policy): boolean {
  if (policy === 'delref') for (const group of stream.groups.values()) dropPending(group, id);
  const deleted = stream.delete(id);
  if (deleted) stream.noteDeleted([id]);
  return deleted;
}

function xdelex(args: readonly string[], ctx: CommandContext): Reply {
  const parsed = parseDeletion(args, 2);
  if (isErrorReply(parsed)) return parsed;
  const value = streamAt(ctx, args[1]);
  if (isErrorReply(value)) return value;
  return array(
    parsed.ids.map((id) => {
      const stream = value?.stream;
      if (!stream || stream.get(id) === undefined) return integer(NOT_FOUND);
      if (parsed.policy === 'acked' && referenced(stream, id)) return integer(STILL_REFERENCED);
      deleteEntry(stream, id, parsed.policy);
      return integer(DELETED);
    }),
  );
}

function xackdel(args: readonly string[], ctx: CommandContext): Reply {
  const parsed = parseDeletion(args, 3);
  if (isErrorReply(parsed)) return parsed;
  const value = streamAt(ctx, args[1]);
  if (isErrorReply(value)) return value;
  const stream = value?.stream;
  const group = stream?.groups.get(args[2]);
  return array(
    parsed.ids.map((id) => {
      if (!stream || !group || !dropPending(group, id)) return integer(NOT_FOUND);
      if (parsed.policy === 'acked' && referenced(stream, id)) return integer(STILL_REFERENCED);
      deleteEntry(stream, id, parsed.policy);
      return integer(DELETED);
    }),
  );
}

export const streamDeletionCommandHandlers: CommandHandlers = { xdelex, xackdel };
