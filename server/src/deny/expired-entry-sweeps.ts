// Timed deny entries that have passed, removed without waiting for an admin. A request's check never
// removes one (an instance whose clock ran ahead erased others' entries: issue 34 finding 4), and
// before this an expired entry stayed in the list's set until an admin denied someone or listed the
// list, so each of its caller's requests paid the check's second step (the script) for nothing
// (issue 34 review, left over). Now the check that meets one (deny-check.ts: the set holds a member
// the script no longer counts as denied) calls `met()`, which costs a comparison; at most once per
// SWEEP_INTERVAL_MS, and never while a sweep runs, it starts the admin's own sweep (deny-store.ts:
// entries passed by this instance's clock and by the store's TIME, so a fast clock removes nothing
// early) in a later turn of the event loop, never awaited by a request. It removes SWEEP_CHUNK entries
// per script, one script in flight, a turn between them, until a chunk comes back short: a huge list
// never holds the event loop nor Redis long, and the work is linear in the entries that have passed.
// A failed sweep (a Redis user not allowed TIME, an outage) is dropped; the next entry met after the
// interval tries again.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Redis } from '@upstash/redis';
import type { DenyListKeys } from './deny-members';
import { removeExpired, sweepMoment } from './deny-store';

/**
 * The least time between two sweeps of one instance: an entry that has passed costs its caller's
 * requests at most this long, and a fast-clock instance that keeps meeting an entry the store's
 * clock still holds asks the store twice per interval (TIME and the sweep).
 */
export const SWEEP_INTERVAL_MS = 10_000;

/**
 * Entries removed per script (an SREM, a ZREM and an HDEL each): the store runs nothing else
 * meanwhile. The memory engine runs the script in Lua compiled to JavaScript (fengari), on the
 * embedded store in the app's own process: measured in this stop's review, a script of 256 took 41 to
 * 101 ms there (5,000 entries swept in 415 ms, the app's event loop delayed up to 74 ms), against 1.2
 * to 1.7 ms on redis-server 7.0.15 (INFO commandstats, the loaded 2-core test machine). 32 keeps a
 * script near a tenth of that on either; more round trips, off the request path.
 */
export const SWEEP_CHUNK = 32;

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
      const moment = await sweepMoment(this.redis, Date.now());
      while ((await removeExpired(this.redis, this.keys, moment, SWEEP_CHUNK)) === SWEEP_CHUNK) await nextTurn();
    } catch {
      // Housekeeping: the entries wait for the next sweep.
    }
  }
}
