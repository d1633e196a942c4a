// Range selection in a sorted set, by rank, by score or by lex, in either direction, with LIMIT;
// and the parsing of score bounds (`(1.5`, `-inf`) and lex bounds (`[a`, `(a`, `-`, `+`).
import { error, type ErrorReply } from '../../reply';
import { isDecimal, isErrorReply } from '../arguments';
import type { ScoredMember, SortedSet } from '../sorted-set';

export interface Bound<T> {
  readonly value: T;
  readonly exclusive: boolean;
}

export type RangeSpec =
  | { readonly by: 'rank'; readonly start: number; readonly stop: number; readonly rev: boolean }
  | { readonly by: 'score'; readonly min: Bound<number>; readonly max: Bound<number>; readonly rev: boolean; readonly offset: number; readonly count: number }
  | { readonly by: 'lex'; readonly min: Bound<string>; readonly max: Bound<string>; readonly rev: boolean; readonly offset: number; readonly count: number };

const NOT_A_FLOAT_BOUND = error('ERR min or max is not a float');
const NOT_A_LEX_BOUND = error('ERR min or max not valid string range item');
/** Lex bounds `-` and `+` stand below and above every member. */
const LEX_MIN = '\u0000-min';
const LEX_MAX = '\u0000+max';

export function parseScoreBound(text: string): Bound<number> | ErrorReply {
  const exclusive = text.startsWith('(');
  const body = exclusive ? text.slice(1) : text;
  const lower = body.toLowerCase();
  const value = lower === 'inf' || lower === '+inf' ? Infinity : lower === '-inf' ? -Infinity : isDecimal(body) ? Number(body) : NaN;
  return Number.isNaN(value) ? NOT_A_FLOAT_BOUND : { value, exclusive };
}

export function parseLexBound(text: string): Bound<string> | ErrorReply {
  if (text === '-') return { value: LEX_MIN, exclusive: false };
  if (text === '+') return { value: LEX_MAX, exclusive: false };
  if (text.startsWith('[')) return { value: text.slice(1), exclusive: false };
  if (text.startsWith('(')) return { value: text.slice(1), exclusive: true };
  return NOT_A_LEX_BOUND;
}

export function parseBounds<T>(min: string, max: string, parse: (text: string) => Bound<T> | ErrorReply): [Bound<T>, Bound<T>] | ErrorReply {
  const low = parse(min);
  if (isErrorReply(low)) return low;
  const high = parse(max);
  if (isErrorReply(high)) return high;
  return [low, high];
}

function belowScore(min: Bound<number>) {
  return (entry: ScoredMember) => (min.exclusive ? entry.score <= min.value : entry.score < min.value);
}
function withinMaxScore(max: Bound<number>) {
  return (entry: ScoredMember) => (max.exclusive ? entry.score < max.value : entry.score <= max.value);
}
function lexBelow(min: Bound<string>) {
  return (entry: ScoredMember) => (min.value === LEX_MIN ? false : min.value === LEX_MAX ? true : min.exclusive ? entry.member <= min.value : entry.member < min.value);
}
function lexWithinMax(max: Bound<string>) {
  return (entry: ScoredMember) => (max.value === LEX_MAX ? true : max.value === LEX_MIN ? false : max.exclusive ? entry.member < max.value : entry.member <= max.value);
}

/** Ranks [first, last) of the members between two bounds. */
export function boundedRanks(zset: SortedSet, spec: Exclude<RangeSpec, { by: 'rank' }>): [number, number] {
  const first = spec.by === 'score' ? zset.firstRankWhere(belowScore(spec.min)) : zset.firstRankWhere(lexBelow(spec.min));
  const end = spec.by === 'score' ? zset.firstRankWhere(withinMaxScore(spec.max)) : zset.firstRankWhere(lexWithinMax(spec.max));
  return [first, Math.max(first, end)];
}

/** Clamps Redis-style rank indexes (negatives count from the end) to [first, last], or undefined when empty. */
export function clampRanks(size: number, start: number, stop: number): [number, number] | undefined {
  const from = Math.max(0, start < 0 ? size + start : start);
  const to = Math.min(size - 1, stop < 0 ? size + stop : stop);
  return from > to || from >= size ? undefined : [from, to];
}

export function selectRange(zset: SortedSet, spec: RangeSpec): ScoredMember[] {
  if (spec.by === 'rank') {
    const ranks = clampRanks(zset.size, spec.start, spec.stop);
    if (!ranks) return [];
    if (!spec.rev) return zset.slice(ranks[0], ranks[1]);
    return zset.slice(zset.size - 1 - ranks[1], zset.size - 1 - ranks[0]).reverse();
  }
  const [first, end] = boundedRanks(zset, spec);
  let selected = zset.slice(first, end - 1);
  if (spec.rev) selected = selected.reverse();
  if (spec.offset < 0) return [];
  return spec.count < 0 ? selected.slice(spec.offset) : selected.slice(spec.offset, spec.offset + spec.count);
}
