// Timed deny entries that have passed, removed without waiting for an admin. A request's check never
// removes one (an instance whose clock ran ahead erased others' entries: issue 34 finding 4), and
// before this an expired entry stayed in the list's set until an admin denied someone or listed the
// list, so each of its caller's requests paid the check's second step (the script) for nothing
// (issue 34 review, left over). Now the check that meets one (deny-check.ts: the set holds a member
// the script no longer counts as denied) calls `met()`, which costs a comparison; at most once per
// SWEEP_INTERVAL_MS, and never while a sweep runs, it starts the admin's own sweep (deny-store.ts:
// entries passed by this instance's clock and by the store's TIME, so a fast clock removes nothing
// early) in a later turn of the event loop, never awaited by a request, to the end of the entries
// that have passed (deny-store.ts removes them a few per script, one script in flight, a turn between
// them): a huge list never holds the event loop nor Redis long, and the work is linear in them.
// A failed sweep (a Redis user not allowed TIME, an outage) is dropped; the next entry met after the
// interval tries again.
import type { Redis } from '@upstash/redis';
import type { DenyListKeys } from './deny-members';
import { sweepExpired } from './deny-store';

/**
 * The least time between two sweeps of one instance: an entry that has passed costs its caller's
 * requests at most this long, and a fast-clock instance that keeps meeting an entry the store's
 * clock still holds asks the store twice per interval (TIME and the sweep).
 */
export const SWEEP_INTERVAL_MS = 10_000;

export class ExpiredEntrySweeps {
  /** When the last sweep started (performance.now(): a faked or stepped Date moves no interval). */
  private lastStarted = -Infinity;
  private running = false;

  constructor(
    private readonly redis: Redis,
    private readonly keys: DenyListKeys,
  ) {}

  /** A check met an entry that has passed by its caller's clock: schedules a sweep unless one runs or ran within the interval. */
  met(): void {
    const now = performance.now();
    if (this.running || now - this.lastStarted < SWEEP_INTERVAL_MS) return;
    this.running = true;
    this.lastStarted = now;
    setImmediate(() => {
      void this.sweep().finally(() => {
        this.running = false;
      });
    });
  }

  private async sweep(): Promise<void> {
    try {
      await sweepExpired(this.redis, this.keys, Date.now(), Infinity);
    } catch {
      // Housekeeping: the entries wait for the next sweep.
    }
  }
}
