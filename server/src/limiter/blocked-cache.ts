// Callers refused until a known reset time, remembered in memory so that a flood from one caller
// costs no store round trips. Bounded: past `capacity` blocks, the caller blocked longest ago loses
// its oldest block first. A block may be held for less time than its reset (`block`'s `until`): the
// store is then asked again sooner, which is how a raised live limit reaches an instance that only
// refuses from memory.
//
// Keyed by the caller, then by strategy and method (what a strategy's limiter key holds besides its
// fixed route and limiter): every request of a blocked caller looks itself up, and a key built per
// request (the whole limiter key, or any string joining the three) is a fresh string that V8 must
// flatten and hash at a cost that grows with its length; it was the blocked path's largest cost. The
// caller's identifier is usually a string the request already holds (its IP, a header's value).
// A block remembers the tier (docs/tiers.md) the caller was refused under: a caller whose tier has
// changed since is asked about in the store again, under its new limit. A block also remembers the
// tokens the refused request asked for (its `rate`: a GraphQL request's count or cost, docs/graphql.md):
// a caller refused a request of 50 may still have 10 left, so only requests of at least as many are
// answered from memory; smaller ones ask the store.
import { DEFAULT_TIER } from '../config/tiers';

/** One remembered refusal of a caller: answered with `reset` while now < `until`. */
interface Block {
  readonly strategyIndex: number;
  /** The method in the strategy's keys. */
  readonly method: string;
  readonly reset: number;
  readonly until: number;
  /** The tier it was refused under (`limiter` without tiers). */
  readonly tier: string;
  /** The tokens the refused request asked for: requests of fewer are not refused from memory. */
  readonly rate: number;
}

/** Where a caller's block of one strategy and method is among its blocks, or -1. */
function indexOfBlock(blocks: readonly Block[], strategyIndex: number, method: string): number {
  for (let index = 0; index < blocks.length; index++) if (blocks[index].strategyIndex === strategyIndex && blocks[index].method === method) return index;
  return -1;
}

export class BlockedCache {
  /** Caller -> its blocks, one per strategy and method that refused it (at most the config's strategies × methods), oldest first; callers in the order they were last blocked. */
  private readonly callers = new Map<string, Block[]>();
  private blocks = 0;

  constructor(private readonly capacity: number) {}

  /** The reset time (ms epoch) while `caller`, in `tier`, is blocked on one strategy and method for requests of `rate` tokens, else undefined. */
  blockedUntil(strategyIndex: number, method: string, caller: string, now: number, tier: string = DEFAULT_TIER, rate = 1): number | undefined {
    const blocks = this.callers.get(caller);
    if (blocks === undefined) return undefined;
    const index = indexOfBlock(blocks, strategyIndex, method);
    if (index < 0) return undefined;
    if (blocks[index].until > now && blocks[index].tier === tier) return rate >= blocks[index].rate ? blocks[index].reset : undefined;
    this.remove(caller, blocks, index);
    return undefined;
  }

  /** Refuses `caller`, in `tier`, requests of `rate` tokens or more on one strategy and method from memory until `until` (default: `reset`), answering with `reset`. */
  block(strategyIndex: number, method: string, caller: string, reset: number, until = reset, tier: string = DEFAULT_TIER, rate = 1): void {
    if (this.capacity === 0) return;
    this.forget(strategyIndex, method, caller);
    while (this.blocks >= this.capacity) this.forgetOldest();
    const blocks = this.callers.get(caller) ?? [];
    blocks.push({ strategyIndex, method, reset, until: Math.min(reset, until), tier, rate });
    this.blocks++;
    // The caller blocked last goes last, so the one blocked longest ago is forgotten first.
    this.callers.delete(caller);
    this.callers.set(caller, blocks);
  }

  /** Forgets a caller's block at once (after an admin reset of its counters). */
  forget(strategyIndex: number, method: string, caller: string): void {
    const blocks = this.callers.get(caller);
    const index = blocks ? indexOfBlock(blocks, strategyIndex, method) : -1;
    if (blocks && index >= 0) this.remove(caller, blocks, index);
  }

  /** Forgets every caller's block of one strategy at once (after its limit was raised): one pass over at most `capacity` blocks. */
  forgetStrategy(strategyIndex: number): void {
    for (const [caller, blocks] of this.callers) {
      const kept = blocks.filter((block) => block.strategyIndex !== strategyIndex);
      this.blocks -= blocks.length - kept.length;
      if (kept.length === 0) this.callers.delete(caller);
      else this.callers.set(caller, kept);
    }
  }

  /** How many blocks are held. */
  get size(): number {
    return this.blocks;
  }

  private forgetOldest(): void {
    const [caller, blocks] = this.callers.entries().next().value as [string, Block[]];
    this.remove(caller, blocks, 0);
  }

  private remove(caller: string, blocks: Block[], index: number): void {
    blocks.splice(index, 1);
    this.blocks--;
    if (blocks.length === 0) this.callers.delete(caller);
  }
}
