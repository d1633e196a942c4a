// The class (tiers.ts) each caller of a strategy with tiers was last seen with on this instance, so
// the usage view can say which tier a listed caller is in (docs/tiers.md). Only this instance's
// requests are known: a caller another instance served, or one forgotten here, is shown with no tier.
// Bounded: at most CAPACITY callers (the oldest entry forgotten first), each kept SEEN_FOR_MS after
// its class was last recorded; a caller whose class is unchanged costs one map look-up per request.
import { DEFAULT_TIER, type CallerClass } from '../config/tiers';
import { BoundedExpiringMap } from '../limiter/bounded-expiring-map';

const CAPACITY = 10_000;
const SEEN_FOR_MS = 3_600_000;

/** A caller's class, or `limiter` for a verified principal of no known type (it gets the strategy's own limit). */
export type SeenClass = CallerClass | typeof DEFAULT_TIER;

export class CallersSeen {
  private readonly seen = new BoundedExpiringMap<SeenClass>(CAPACITY);

  saw(identifier: string, seen: SeenClass, now: number): void {
    if (this.seen.get(identifier, now) !== seen) this.seen.set(identifier, seen, now + SEEN_FOR_MS);
  }

  /** The class `identifier` was last seen with, when known. */
  classOf(identifier: string, now: number): SeenClass | undefined {
    return this.seen.get(identifier, now);
  }
}
