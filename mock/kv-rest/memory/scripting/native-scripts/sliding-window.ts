// @upstash/ratelimit 2.2.0's sliding window scripts in TypeScript: limit and getRemaining. The
// previous window's count is weighted by how much of it still overlaps, with Lua's float `%` and
// `math.floor`; numbers sent to Redis are written as Lua writes them.
import { array, type Reply } from '../../../reply';
import { formatDouble } from '../../format-double';
import { dynamicLimitIsPlain, effectiveLimit } from './dynamic-limit';
import { luaFloor, luaModulo, numberReply, plainNumber } from './lua-numbers';
import { RUN_ON_LUA, type NativeRun } from './native-run';

export interface SlidingWindowInput {
  readonly currentKey: string;
  readonly previousKey: string;
  readonly dynamicLimitKey: string | undefined;
  readonly tokens: number;
  readonly now: number;
  readonly window: number;
}

/** KEYS: current, previous, dynamic limit key?; ARGV: limit, now, window: undefined when Lua must run it. */
export function slidingWindowInput(run: NativeRun): SlidingWindowInput | undefined {
  const [currentKey, previousKey, dynamicLimitKey] = run.keys;
  const { argv } = run;
  const tokens = plainNumber(argv[0]);
  const now = plainNumber(argv[1]);
  const window = plainNumber(argv[2]);
  if (currentKey === undefined || previousKey === undefined || tokens === undefined || now === undefined || window === undefined) return undefined;
  if (!dynamicLimitIsPlain(run, dynamicLimitKey) || !run.holdsPlainNumberOrNothing(currentKey) || !run.holdsPlainNumberOrNothing(previousKey)) return undefined;
  return { currentKey, previousKey, dynamicLimitKey, tokens, now, window };
}

export interface WindowCounts {
  readonly limit: number;
  readonly current: number;
  /** The previous window's count, weighted and floored. */
  readonly previous: number;
}

/** The script lines of the three GETs every sliding-window script starts with: the dynamic limit's, the current window's, the previous one's. */
export type WindowReadLines = readonly [limit: number, current: number, previous: number];

/** The calls every sliding-window script starts with, and the weighting. */
export function windowCounts(run: NativeRun, input: SlidingWindowInput, [limitLine, currentLine, previousLine]: WindowReadLines): WindowCounts {
  const limit = effectiveLimit(run, input.dynamicLimitKey, input.tokens, limitLine);
  const current = run.call(currentLine, 'GET', input.currentKey);
  const previous = run.call(previousLine, 'GET', input.previousKey);
  const inCurrent = luaModulo(input.now, input.window) / input.window;
  return {
    limit,
    current: current === false ? 0 : Number(current),
    previous: luaFloor((1 - inCurrent) * (previous === false ? 0 : Number(previous))),
  };
}

/** ARGV[4] is the increment (negative: a refund, never refused). Answers {remaining or -1, limit}. */
export function slidingWindowLimit(run: NativeRun): Reply | typeof RUN_ON_LUA {
  const input = slidingWindowInput(run);
  const increment = plainNumber(run.argv[3]);
  if (input === undefined || increment === undefined) return RUN_ON_LUA;
  const { limit, current, previous } = windowCounts(run, input, [13, 19, 24]);
  if (increment > 0 && previous + current >= limit) return array([numberReply(-1), numberReply(limit)]);
  const count = run.call(37, 'INCRBY', input.currentKey, formatDouble(increment)) as number;
  // Long enough to overlap the next window, plus a second.
  if (count === increment) run.call(41, 'PEXPIRE', input.currentKey, formatDouble(input.window * 2 + 1000));
  return array([numberReply(limit - (count + previous)), numberReply(limit)]);
}

/** Answers {limit - used, limit}. */
export function slidingWindowRemaining(run: NativeRun): Reply | typeof RUN_ON_LUA {
  const input = slidingWindowInput(run);
  if (input === undefined) return RUN_ON_LUA;
  const { limit, current, previous } = windowCounts(run, input, [12, 18, 23]);
  return array([numberReply(limit - (previous + current)), numberReply(limit)]);
}
