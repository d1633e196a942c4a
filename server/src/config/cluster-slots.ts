// Redis Cluster slots, for the keys the plugin lays out on a cluster (config/key-placement.ts). A
// key's slot is CRC16 of its hash tag (the part inside its first `{...}`) modulo 16384, computed by
// `cluster-key-slot`, the package ioredis routes with, so both always agree. `slotTag(slot)` is a
// short string whose own slot is `slot`: a key tagged with it lands beside every key of that slot,
// which is how a value that every caller's script reads (a strategy's live limit) is kept once per
// slot, next to the counters that read it. The tags are found once, by counting in base 36 until
// every slot has one (about 88,000 hashes, 25 ms, tags of at most 4 characters).
const keySlot = require('cluster-key-slot') as (key: string) => number;

export const CLUSTER_SLOTS = 16384;

/** The slot Redis Cluster keeps `key` in. */
export const slotOf = (key: string): number => keySlot(key);

let tags: readonly string[] | undefined;

function findTags(): readonly string[] {
  const found = new Array<string>(CLUSTER_SLOTS);
  let missing = CLUSTER_SLOTS;
  for (let counter = 0; missing > 0; counter++) {
    const candidate = counter.toString(36);
    const slot = keySlot(candidate);
    if (found[slot] === undefined) {
      found[slot] = candidate;
      missing -= 1;
    }
  }
  return found;
}

/** For every slot, in slot order, a tag whose slot it is. */
export function slotTags(): readonly string[] {
  return (tags ??= findTags());
}

/** A tag whose slot is `slot`. */
export const slotTag = (slot: number): string => slotTags()[slot];
