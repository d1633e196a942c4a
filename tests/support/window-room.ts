// Test support: room in the current windows for a suite whose app counts on the real clock (a Strapi
// app in-process or in a child). @upstash/ratelimit numbers fixed and sliding windows from the epoch
// (a 15m window starts at :00, :15, :30 and :45), so requests of one suite that straddle a boundary
// meet two windows: a fixed window counts afresh, and a sliding one weighs the earlier count as
// floor((1 - elapsed / window) * count), one less at once. CI saw it: a 15m login limit, a boundary at
// 10:30:00 between two requests of one test, a request admitted where it expected a refusal. Such a
// suite waits, once its app is up and before its tests, until each of its windows has SUITE_ROOM_MS
// left; a suite on a fake clock moves its windows itself (fake-date.ts).
import { parseDuration } from '../../server/src/config/duration';

/**
 * Longer than the tests of any one suite take after its boot on a loaded machine: the longest, the
 * first describe of tiers-give-each-role-and-token-type-its-own-limit-in-strapi, took 20 s at load 6.
 * A suite whose windows are an hour long waits for it one run in 60.
 */
export const SUITE_ROOM_MS = 60_000;

const WINDOW_ALGORITHMS = new Set(['fixed-window', 'sliding-window']);

interface StrategyWithWindow {
  readonly limiter?: { readonly algorithm?: string; readonly window?: string };
}

/** The windows, in milliseconds, of a plugin config's fixed- and sliding-window strategies. */
function windowsOf(pluginConfig: Record<string, unknown>): number[] {
  const strategies = (pluginConfig.strategy ?? []) as readonly StrategyWithWindow[];
  return strategies.flatMap(({ limiter }) => {
    if (!limiter?.algorithm || !WINDOW_ALGORITHMS.has(limiter.algorithm) || !limiter.window) return [];
    const duration = parseDuration(limiter.window);
    if (!duration) throw new Error(`The window ${JSON.stringify(limiter.window)} is not a duration`);
    return [duration.milliseconds];
  });
}

/** How long until each window in `windowsMs` has `roomMs` left (0: it has now): the end of the one that has not. */
function waitForRoomMs(windowsMs: readonly number[], roomMs: number, now: number): number {
  return Math.max(0, ...windowsMs.map((windowMs) => {
    const left = windowMs - (now % windowMs);
    return left >= roomMs ? 0 : left;
  }));
}

/** Resolves once each fixed or sliding window of `pluginConfig` has at least `roomMs` left before its boundary. */
export async function untilItsWindowsHaveRoom(pluginConfig: Record<string, unknown>, roomMs = SUITE_ROOM_MS): Promise<void> {
  const windowsMs = windowsOf(pluginConfig);
  const tooShort = windowsMs.find((windowMs) => windowMs < 2 * roomMs);
  if (tooShort !== undefined) throw new Error(`A ${tooShort} ms window leaves a suite on the real clock no room of ${roomMs} ms: use a window of at least ${2 * roomMs} ms, or a fake clock (fake-date.ts)`);
  // Windows that each divide the longest end together at its boundaries, so one wait gives them all
  // room; others (2m and 3m) could need waits in turn longer than the hook's timeout.
  const longest = Math.max(0, ...windowsMs);
  const apart = windowsMs.find((windowMs) => longest % windowMs !== 0);
  if (apart !== undefined) throw new Error(`The ${apart} ms window does not divide the ${longest} ms one: a suite on the real clock gives its windows room only when each divides the longest`);
  for (let wait = waitForRoomMs(windowsMs, roomMs, Date.now()); wait > 0; ) {
    const before = Date.now();
    await new Promise((resolve) => setTimeout(resolve, wait + 1));
    if (Date.now() === before) throw new Error('Date.now() did not move while waiting for room in the windows: a suite on a faked Date moves its windows itself (fake-date.ts)');
    wait = waitForRoomMs(windowsMs, roomMs, Date.now());
  }
}

/**
 * For one test file, registered after the hooks that start its app (jest runs them in that order):
 * before its tests, each window of `pluginConfig` gets SUITE_ROOM_MS of room.
 */
export function windowsHaveRoomForTheSuite(pluginConfig: Record<string, unknown>): void {
  beforeAll(() => untilItsWindowsHaveRoom(pluginConfig), SUITE_ROOM_MS + 10_000);
}
