// Shared helpers of the sorted-set commands: finding the set at a key, and replying members with
// or without their scores (scores written as Redis writes doubles).
import { array, bulk, type ErrorReply, type Reply } from '../../reply';
import { formatDouble } from '../format-double';
import type { CommandContext } from '../handler';
import type { ZSetValue } from '../keyspace';
import { SortedSet, type ScoredMember } from '../sorted-set';

export function zsetAt(ctx: CommandContext, key: string): ZSetValue | undefined | ErrorReply {
  return ctx.db.lookupTyped(key, 'zset', ctx.now);
}

export function newZSet(): ZSetValue {
  return { type: 'zset', zset: new SortedSet() };
}

export function membersReply(entries: readonly ScoredMember[], withScores: boolean): Reply {
  const items: Reply[] = [];
  for (const entry of entries) {
    items.push(bulk(entry.member));
    if (withScores) items.push(bulk(formatDouble(entry.score)));
  }
  return array(items);
}

/**
 * membersReply of a copy of stored members (ranges, unions), once reserved (see
 * CommandContext.reserveReply); the scores' bytes are counted once built.
 */
export function reservedMembersReply(entries: readonly ScoredMember[], withScores: boolean, ctx: CommandContext): Reply {
  let bytes = 0;
  for (const { member } of entries) bytes += member.length;
  return ctx.reserveReply(withScores ? entries.length * 2 : entries.length, bytes) ?? membersReply(entries, withScores);
}

/** Replaces `key` with the given members (deleting it when there are none); answers the count. */
export function storeZSet(ctx: CommandContext, key: string, entries: Iterable<ScoredMember>): number {
  const stored = newZSet();
  stored.zset.batch(() => {
    for (const entry of entries) stored.zset.set(entry.member, entry.score);
  });
  ctx.db.delete(key);
  if (stored.zset.size > 0) ctx.db.set(key, stored);
  return stored.zset.size;
}
