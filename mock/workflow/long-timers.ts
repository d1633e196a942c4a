// Waits of any length the server accepts (delays up to a year): Node's setTimeout holds at most
// 2^31-1 ms (24.8 days) and turns anything longer into 1 ms, so a long wait is a chain of timers of
// at most that length, each re-reading the clock. close() cancels every pending wait at once.

/** The longest delay setTimeout honours; beyond it Node fires after 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export class LongTimers {
  private readonly pending = new Set<NodeJS.Timeout>();
  private closed = false;

  /** Resolves after `ms` (at once for 0 or less); never resolves once close() has run. */
  wait(ms: number): Promise<void> {
    if (this.closed) return new Promise<void>(() => undefined);
    const deadline = Date.now() + Math.max(0, ms);
    return new Promise((resolve) => {
      const arm = (): void => {
        const left = deadline - Date.now();
        if (left <= 0) return resolve();
        const timer = setTimeout(() => {
          this.pending.delete(timer);
          arm();
        }, Math.min(left, MAX_TIMER_MS));
        this.pending.add(timer);
      };
      arm();
    });
  }

  close(): void {
    this.closed = true;
    for (const timer of this.pending) clearTimeout(timer);
    this.pending.clear();
  }
}
