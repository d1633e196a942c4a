// The store's clock, and how far this instance's is from it. Windows, token refills and timed denies
// all follow each instance's own clock (@upstash/ratelimit takes Date.now() for the window number,
// the sliding weight and a bucket's refill, and the plugin's scripts take `now` from the app as the
// library does), so instances sharing one store agree only as far as their clocks do: with one
// instance 3 s ahead, a burst at a window's edge got 20 through where the limit was 10 (issue 34
// finding 5). The store's TIME is the one clock they all reach: boot measures this instance's offset
// from it once (strapi/boot-report.ts warns past CLOCK_OFFSET_WARNING_MS), and the deny list's admin
// side removes a timed entry only once the store's clock has passed it too (deny/deny-store.ts). Redis,
// Upstash and the project's key-value server all answer TIME, on every transport.
import type { Redis } from '@upstash/redis';

/** The offset past which boot warns: a second moves a window's edge by a tenth of a 10 s window. */
export const CLOCK_OFFSET_WARNING_MS = 1000;

export interface ClockOffset {
  /** This instance's clock minus the store's (ms): positive when this instance is ahead. */
  readonly offsetMs: number;
  /** Half the round trip the reading took: the true offset lies within this of `offsetMs`. */
  readonly uncertaintyMs: number;
}

/** The store's clock (TIME), in ms since the epoch. */
export async function readStoreClock(redis: Pick<Redis, 'time'>): Promise<number> {
  const [seconds, micros] = await redis.time();
  return Number(seconds) * 1000 + Number(micros) / 1000;
}

/** One TIME round trip, read as happening halfway between its sending and its answer by this instance's clock. */
export async function measureClockOffset(redis: Pick<Redis, 'time'>, clock: () => number = Date.now): Promise<ClockOffset> {
  const sent = clock();
  const store = await readStoreClock(redis);
  const answered = clock();
  return { offsetMs: (sent + answered) / 2 - store, uncertaintyMs: (answered - sent) / 2 };
}

/** Whether the offset is past the bound even at the edge of its uncertainty nearest zero. */
export const clockTooFar = ({ offsetMs, uncertaintyMs }: ClockOffset): boolean => Math.abs(offsetMs) - uncertaintyMs > CLOCK_OFFSET_WARNING_MS;
