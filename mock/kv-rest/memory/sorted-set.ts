// The sorted set: scores by member, plus the members kept in Redis's order (score, then member
// bytes) in an array, so ranks are positions and ranges are slices found by binary search.

export interface ScoredMember {
  readonly member: string;
  readonly score: number;
}

function compare(a: ScoredMember, b: ScoredMember): number {
  if (a.score !== b.score) return a.score < b.score ? -1 : 1;
  return a.member < b.member ? -1 : a.member > b.member ? 1 : 0;
}

export class SortedSet {
  private readonly scores = new Map<string, number>();
  private readonly ordered: ScoredMember[] = [];

  get size(): number {
    return this.ordered.length;
  }

  score(member: string): number | undefined {
    return this.scores.get(member);
  }

  /** Adds or moves a member; answers true when it was new. */
  set(member: string, score: number): boolean {
    const previous = this.scores.get(member);
    if (previous === score) return false;
    if (previous !== undefined) this.ordered.splice(this.indexOf({ member, score: previous }), 1);
    this.scores.set(member, score);
    const entry = { member, score };
    this.ordered.splice(this.insertionPoint(entry), 0, entry);
    return previous === undefined;
  }

  delete(member: string): boolean {
    const score = this.scores.get(member);
    if (score === undefined) return false;
    this.scores.delete(member);
    this.ordered.splice(this.indexOf({ member, score }), 1);
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
