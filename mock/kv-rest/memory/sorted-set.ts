// The sorted set: scores by member, plus the members kept in Redis's order (score, then member
// bytes) in an array, so ranks are positions and ranges are slices found by binary search. One
// change splices the array (a memory move); a command that changes many members at once runs them
// in batch(), which re-sorts once instead: k splices of an n-member set would cost k x n.

export interface ScoredMember {
  readonly member: string;
  readonly score: number;
}

function compare(a: ScoredMember, b: ScoredMember): number {
  if (a.score !== b.score) return a.score < b.score ? -1 : 1;
  return a.member < b.member ? -1 : a.member > b.member ? 1 : 0;
}

/** Changes a batch splices into place before it switches to one re-sort at its end. */
const SPLICES_PER_BATCH = 32;

export class SortedSet {
  private readonly scores = new Map<string, number>();
  private readonly ordered: ScoredMember[] = [];
  /** Changes made by the batch running now; undefined outside batch(). */
  private batchChanges: number | undefined;
  /** True while `ordered` lags behind `scores`, until the batch ends. */
  private stale = false;

  /** Runs `changes`, re-sorting once at the end when they were too many to splice each. */
  batch<T>(changes: () => T): T {
    this.batchChanges = 0;
    try {
      return changes();
    } finally {
      this.batchChanges = undefined;
      if (this.stale) this.resort();
    }
  }

  /** True when this change is left to the end of the batch rather than spliced now. */
  private deferred(): boolean {
    if (this.batchChanges !== undefined && ++this.batchChanges > SPLICES_PER_BATCH) this.stale = true;
    return this.stale;
  }

  private resort(): void {
    this.ordered.length = 0;
    for (const [member, score] of this.scores) this.ordered.push({ member, score });
    this.ordered.sort(compare);
    this.stale = false;
  }

  get size(): number {
    return this.scores.size;
  }

  score(member: string): number | undefined {
    return this.scores.get(member);
  }

  /** Adds or moves a member; answers true when it was new. */
  set(member: string, score: number): boolean {
    const previous = this.scores.get(member);
    if (previous === score) return false;
    const deferred = this.deferred();
    if (previous !== undefined && !deferred) this.ordered.splice(this.indexOf({ member, score: previous }), 1);
    this.scores.set(member, score);
    if (deferred) return previous === undefined;
    const entry = { member, score };
    this.ordered.splice(this.insertionPoint(entry), 0, entry);
    return previous === undefined;
  }

  delete(member: string): boolean {
    const score = this.scores.get(member);
    if (score === undefined) return false;
    if (!this.deferred()) this.ordered.splice(this.indexOf({ member, score }), 1);
    this.scores.delete(member);
    return true;
  }

  /** 0-based rank in ascending order, or undefined. */
  rank(member: string): number | undefined {
    const score = this.scores.get(member);
    return score === undefined ? undefined : this.indexOf({ member, score });
  }

  /** Members from rank `start` to `stop` inclusive (already clamped by the caller). */
  slice(start: number, stop: number): ScoredMember[] {
    return this.ordered.slice(start, stop + 1);
  }

  all(): readonly ScoredMember[] {
    return this.ordered;
  }

  /** The first rank whose entry does not satisfy `before` (entries satisfying it form a prefix). */
  firstRankWhere(before: (entry: ScoredMember) => boolean): number {
    let low = 0;
    let high = this.ordered.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (before(this.ordered[middle])) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  clone(): SortedSet {
    const copy = new SortedSet();
    for (const entry of this.ordered) {
      copy.scores.set(entry.member, entry.score);
      copy.ordered.push(entry);
    }
    return copy;
  }

  private insertionPoint(entry: ScoredMember): number {
    return this.firstRankWhere((existing) => compare(existing, entry) < 0);
  }

  private indexOf(entry: ScoredMember): number {
    return this.insertionPoint(entry);
  }
}
