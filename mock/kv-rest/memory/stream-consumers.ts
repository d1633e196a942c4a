// Consumer-group bookkeeping shared by XREADGROUP, XCLAIM, XAUTOCLAIM, XACK and XGROUP: finding or
// creating a consumer (which refreshes its seen time, as Redis's lookup does), and moving a pending
// entry between consumers so the group's list and the consumers' lists always agree.
import { OrderedIds } from './ordered-ids';
import type { Consumer, ConsumerGroup, PendingEntry } from './stream';
import type { StreamId } from './stream-id';

/** The named consumer, created when missing; its seen time becomes `now` either way. */
export function consumerFor(group: ConsumerGroup, name: string, now: number): Consumer {
  const found = group.consumers.get(name);
  if (found) {
    found.seenTime = now;
    return found;
  }
  const created: Consumer = { name, seenTime: now, pending: new OrderedIds() };
  group.consumers.set(name, created);
  return created;
}

/** Gives a pending entry to `consumer`, taking it from its previous owner. */
export function assignPending(id: StreamId, entry: PendingEntry, consumer: Consumer): void {
  if (entry.consumer === consumer) return;
  entry.consumer?.pending.delete(id);
  entry.consumer = consumer;
  consumer.pending.set(id, entry);
}

/** Removes a pending entry from the group and its owner (XACK, or an entry no longer in the stream). */
export function dropPending(group: ConsumerGroup, id: StreamId): boolean {
  const entry = group.pending.get(id);
  if (!entry) return false;
  group.pending.delete(id);
  entry.consumer?.pending.delete(id);
  return true;
}

/** Removes a consumer and every pending entry it holds; answers how many it held. */
export function deleteConsumer(group: ConsumerGroup, consumer: Consumer): number {
  const held = consumer.pending.size;
  for (const id of consumer.pending.ids()) group.pending.delete(id);
  group.consumers.delete(consumer.name);
  return held;
}
