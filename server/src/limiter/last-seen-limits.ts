// The limit each rule last had on this instance: the effective limit of the store's latest answer
// (`result.limit`, a live limit when one is stored, else the configured tokens), or the configured
// tokens before any answer. What the instance decides without the store uses it: refusals from the
// block cache, the sliding window's reopening, and the in-memory limits of `failureMode: 'local'`
// (an outage keeps applying the last live limit seen). An answer whose limit is not a valid one is
// no verdict (foreign-live-limit.ts) and never reaches it.
import { isValidLimit } from '../config/bounds';

export class LastSeenLimits {
  private readonly seen: number[];

  /** @param configured each rule's configured tokens, by index. */
  constructor(configured: readonly number[]) {
    this.seen = [...configured];
  }

  of(ruleIndex: number): number {
    return this.seen[ruleIndex];
  }

  /** Remembers a rule's effective limit; true when it rose (blocks remembered under the old one may be too strict). */
  saw(ruleIndex: number, limit: unknown): boolean {
    if (!isValidLimit(limit)) return false;
    const rose = limit > this.seen[ruleIndex];
    this.seen[ruleIndex] = limit;
    return rose;
  }
}
