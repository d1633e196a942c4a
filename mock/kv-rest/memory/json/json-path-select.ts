// Evaluates a parsed path against a document, as RedisJSON's JSONPath engine does, in hosted
// Upstash's order: a `..` visits a node after its children, depth first (RedisJSON visits it
// before them; the official @upstash/redis suite expects `$..b` of {b:3,nested:{b:null}} as
// [null,3], issue 29). An index past either end of an array is clamped (RedisJSON's `[-10]` on
// three items is item 0), filters look at an array's items or an object's values, and a filter
// path with several matches compares true when any does.
// Each match knows where it sits (container and key, with its parent's match), so commands write in
// place. The work is counted: a path that would visit more nodes than the budget (`..` after `..`
// multiplies), or whose filters would compare more pairs of containers, stops with an error instead
// of running for minutes (json-filter-comparison.ts keeps the other comparisons linear).
import { someComparisonHolds, type Spend } from './json-filter-comparison';
import type { FilterExpression, Term } from './json-path-filter';
import type { Segment, Selector } from './json-path';
import { isObject, type JsonObject, type JsonValue } from './json-value';

/** Where a match sits: its container and key (none for the document itself) and its parent's match. */
export interface Match {
  readonly value: JsonValue;
  readonly container: JsonValue[] | JsonObject | undefined;
  readonly key: number | string;
  readonly parent: Match | undefined;
}

export class PathWorkLimitError extends Error {
  override name = 'PathWorkLimitError';
}

export const rootMatch = (value: JsonValue): Match => ({ value, container: undefined, key: '', parent: undefined });

/** The keys from the document down to a match. */
export function routeOf(match: Match): (string | number)[] {
  const route: (string | number)[] = [];
  for (let at: Match | undefined = match; at?.parent !== undefined; at = at.parent) route.push(at.key);
  return route.reverse();
}

/** How many steps a command's path evaluations may take in all: nodes visited and values compared, filters included. */
export class WorkBudget {
  private spent = 0;

  constructor(readonly limit: number) {}

  /** Pays for visiting `count` nodes. */
  spend(count: number): void {
    this.pay(count, () => `ERR the path visits more than ${this.limit} values, past this server's limit`);
  }

  /** Pays for comparing `count` pairs of values in filters. */
  spendComparing(count: number): void {
    this.pay(count, () => `ERR the path's filters compare more pairs of values than this server's limit of ${this.limit} steps of work per command`);
  }

  private pay(count: number, refusal: () => string): void {
    this.spent += count;
    if (this.spent > this.limit) throw new PathWorkLimitError(refusal());
  }
}

export class PathSelector {
  private readonly spendComparing: Spend = (count) => this.budget.spendComparing(count);

  constructor(
    private readonly root: JsonValue,
    private readonly budget: WorkBudget,
  ) {}

  private step(count = 1): void {
    this.budget.spend(count);
  }

  /** The matches of `segments` from `start`, in Upstash's order. */
  select(segments: readonly Segment[], start: Match = rootMatch(this.root)): Match[] {
    let current = [start];
    for (const segment of segments) {
      const next: Match[] = [];
      for (const match of current) {
        const origins = segment.descendant ? this.selfAndDescendants(match) : [match];
        for (const origin of origins) this.apply(segment.selector, origin, next);
      }
      current = next;
      if (current.length === 0) break;
    }
    return current;
  }

  /**
   * The node and every node below it, each after its children, the children in order (iterative:
   * depth costs no stack). Visiting each node before its children, the last child first, lists the
   * nodes in exactly the reverse of that order.
   */
  private selfAndDescendants(match: Match): Match[] {
    const visited: Match[] = [];
    const pending = [match];
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      this.step();
      visited.push(next);
      for (const child of childrenOf(next)) pending.push(child);
    }
    return visited.reverse();
  }

  private apply(selector: Selector, match: Match, out: Match[]): void {
    const value = match.value;
    switch (selector.kind) {
      case 'names':
        if (!isObject(value)) return;
        for (const name of selector.names) {
          this.step();
          if (value.has(name)) out.push({ value: value.get(name) as JsonValue, container: value, key: name, parent: match });
        }
        return;
      case 'wildcard': {
        const children = childrenOf(match);
        this.step(children.length);
        for (const child of children) out.push(child);
        return;
      }
      case 'indexes':
        if (!Array.isArray(value)) return;
        for (const index of selector.indexes) {
          this.step();
          const at = clampIndex(index, value.length);
          if (at < value.length) out.push({ value: value[at], container: value, key: at, parent: match });
        }
        return;
      case 'slice': {
        if (!Array.isArray(value)) return;
        const from = selector.start === undefined ? 0 : clampIndex(selector.start, value.length);
        const to = selector.end === undefined ? value.length : clampIndex(selector.end, value.length);
        for (let at = from; at < to; at += selector.step) {
          this.step();
          out.push({ value: value[at], container: value, key: at, parent: match });
        }
        return;
      }
      case 'filter':
        for (const child of childrenOf(match)) {
          this.step();
          if (this.test(selector.filter, child)) out.push(child);
        }
    }
  }

  private test(filter: FilterExpression, current: Match): boolean {
    if (filter.kind !== 'test') {
      const holds = (operand: FilterExpression): boolean => this.test(operand, current);
      return filter.kind === 'or' ? filter.operands.some(holds) : filter.operands.every(holds);
    }
    const left = this.evaluate(filter.left, current);
    if (!filter.comparison) return left.length > 0;
    const right = this.evaluate(filter.comparison.right, current);
    return someComparisonHolds(left, right, filter.comparison.operator, this.spendComparing);
  }

  /** A term's values: a literal's one value, or a path's matches (none: the test fails). */
  private evaluate(term: Term, current: Match): JsonValue[] {
    if (term.kind === 'literal') return [term.value];
    const start = term.fromRoot ? rootMatch(this.root) : { ...current, parent: undefined };
    return this.select(term.segments, start).map((match) => match.value);
  }
}

/** An index as RedisJSON reads it: negative from the end, clamped to the array's bounds. */
function clampIndex(index: number, length: number): number {
  return index >= 0 ? Math.min(index, length) : Math.max(index + length, 0);
}

function childrenOf(match: Match): Match[] {
  const value = match.value;
  if (Array.isArray(value)) return value.map((item, key) => ({ value: item, container: value, key, parent: match }));
  if (isObject(value)) return [...value].map(([key, member]) => ({ value: member, container: value, key, parent: match }));
  return [];
}
