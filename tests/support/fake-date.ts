// Test support: a fake clock for window tests. Only Date is faked (timers, sockets, setImmediate
// stay real), so the limiter, @upstash/ratelimit and the in-process memory store all read the time
// the test sets: a window passes in an instant and counts are asserted exactly, never after a sleep.

const REAL_EVERYTHING_BUT_DATE = [
  'hrtime', 'nextTick', 'performance', 'queueMicrotask', 'requestAnimationFrame', 'cancelAnimationFrame',
  'requestIdleCallback', 'cancelIdleCallback', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout',
] as const;

/** From now until jest.useRealTimers(): Date stands still at `now` until the test moves it. */
export function fakeDateOnly(now = Date.now()): void {
  jest.useFakeTimers({ now, doNotFake: [...REAL_EVERYTHING_BUT_DATE] });
}

/** Moves the fake clock to the start of the next window of `windowMs` (windows are aligned to the epoch) and answers it. */
export function moveToNextWindow(windowMs: number): number {
  const start = (Math.floor(Date.now() / windowMs) + 1) * windowMs;
  jest.setSystemTime(start);
  return start;
}

/** Moves the fake clock by `ms`. */
export const advanceDate = (ms: number): void => jest.setSystemTime(Date.now() + ms);
