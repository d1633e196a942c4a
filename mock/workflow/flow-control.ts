// Flow control per key: at most `parallelism` deliveries in flight, and at most `rate` per `period`.
// Waiting deliveries start in arrival order as room appears; none is ever dropped.
//
// A rate slot is held from the start of a call until `period` after it ends, not after it starts:
// the time between taking a slot and the request reaching the receiver (signing, waiting for a
// connection, the network) varies, so counting from the start let calls of two periods arrive in
// one. Counting from the end, the (k+rate)-th call starts after the k-th has been answered plus a
// period, so no window of one period ever sees more than `rate` arrivals.
//
// The slots still counting down are what a restarted server must honour: they are saved with the
// runs (`rateSlots`, `restoreRateSlots`), or a restart on the state file started `rate` more calls at
// once, 160 in one second under rate=80 (issue 25, finding 6). A call in flight at the save counts
// as answered then.

export interface FlowLimits {
  readonly parallelism?: number;
  readonly rate?: number;
  /** Milliseconds (default 1000, already scaled by the server's time scale). */
  readonly period: number;
}

/** `parallelism=2, rate=10, period=1m` (each part optional, at least one of parallelism or rate). */
export function parseFlowControlValue(text: string, parsePeriod: (value: string) => number | undefined): FlowLimits | string {
  const limits: { parallelism?: number; rate?: number; period: number } = { period: 1000 };
  for (const part of text.split(',').map((piece) => piece.trim()).filter(Boolean)) {
    const pieces = part.split('=').map((piece) => piece.trim());
    const [name, value = ''] = pieces;
    if (name !== 'parallelism' && name !== 'rate' && name !== 'period') return `unknown setting "${name}": use parallelism=<n>, rate=<n>, period=<duration>`;
    if (pieces.length !== 2) return `each setting is <name>=<value>, got "${part}"`;
    if (name === 'parallelism' || name === 'rate') {
      if (!/^\d{1,9}$/.test(value) || Number(value) < 1) return `${name} must be a whole number of at least 1, got "${value}"`;
      limits[name] = Number(value);
    } else {
      const period = /^\d{1,12}$/.test(value) ? Number(value) * 1000 : parsePeriod(value);
      if (period === undefined || period <= 0) return `period must be a duration such as 1s or 1m, got "${value}"`;
      limits.period = period;
    }
  }
  if (limits.parallelism === undefined && limits.rate === undefined) return 'give parallelism=<n> and/or rate=<n>';
  return limits;
}

/** A key's rate slots still counting down: when each frees up, earliest first. */
export interface RateSlots {
  readonly key: string;
  readonly freeAt: number[];
}

interface KeyState {
  inFlight: number;
  /** The period of the latest call under a rate, for the calls in flight when the slots are saved. */
  period: number;
  /** When each rate slot of a finished call frees up, earliest first. */
  readonly slotsFreeAt: number[];
  /** Deliveries waiting for room, in arrival order. */
  readonly queue: (() => void)[];
  timerPending: boolean;
}

export class FlowControl {
  private readonly keys = new Map<string, KeyState>();

  /** Resolves when a delivery under `key` may start; call the returned release when it ends. */
  acquire(key: string, limits: FlowLimits, now: () => number, wait: (ms: number) => Promise<void>): Promise<() => void> {
    const state = this.stateOf(key);
    if (limits.rate !== undefined) state.period = limits.period;
    return new Promise((resolve) => {
      state.queue.push(() =>
        resolve(() => {
          state.inFlight--;
          if (limits.rate !== undefined) insertSorted(state.slotsFreeAt, now() + limits.period);
          this.pump(key, state, limits, now, wait);
        }),
      );
      this.pump(key, state, limits, now, wait);
    });
  }

  /** The slots counting down at `now`, per key; idle keys with none left are forgotten on the way. */
  rateSlots(now: number): RateSlots[] {
    const saved: RateSlots[] = [];
    for (const [key, state] of this.keys) {
      dropFreed(state.slotsFreeAt, now);
      const freeAt = [...state.slotsFreeAt];
      if (state.period > 0) for (let call = 0; call < state.inFlight; call++) insertSorted(freeAt, now + state.period);
      if (freeAt.length > 0) saved.push({ key, freeAt });
      else if (state.inFlight === 0 && state.queue.length === 0) this.keys.delete(key);
    }
    return saved;
  }

  /** Takes back saved slots, before any delivery starts. */
  restoreRateSlots(saved: readonly RateSlots[]): void {
    for (const { key, freeAt } of saved) for (const time of freeAt) insertSorted(this.stateOf(key).slotsFreeAt, time);
  }

  private stateOf(key: string): KeyState {
    let state = this.keys.get(key);
    if (!state) this.keys.set(key, (state = { inFlight: 0, period: 0, slotsFreeAt: [], queue: [], timerPending: false }));
    return state;
  }

  /** Starts queued deliveries from the head while the limits allow, so nobody overtakes a waiter. */
  private pump(key: string, state: KeyState, limits: FlowLimits, now: () => number, wait: (ms: number) => Promise<void>): void {
    while (state.queue.length > 0) {
      const time = now();
      dropFreed(state.slotsFreeAt, time);
      if (limits.parallelism !== undefined && state.inFlight >= limits.parallelism) return;
      if (limits.rate !== undefined && state.inFlight + state.slotsFreeAt.length >= limits.rate) {
        // Calls in flight free their slots when they end; only slots already counting down need a timer.
        if (!state.timerPending && state.slotsFreeAt.length > 0) {
          state.timerPending = true;
          void wait(state.slotsFreeAt[0] - time).then(() => {
            state.timerPending = false;
            this.pump(key, state, limits, now, wait);
          });
        }
        return;
      }
      state.inFlight++;
      state.queue.shift()!();
    }
    // An idle key with no slot counting down holds nothing worth keeping.
    if (state.inFlight === 0 && state.slotsFreeAt.length === 0) this.keys.delete(key);
  }
}

/** Keeps `times` ascending; periods differ between triggers of one key, so an append may not do. */
function insertSorted(times: number[], time: number): void {
  let index = times.length;
  while (index > 0 && times[index - 1] > time) index--;
  times.splice(index, 0, time);
}

/** Drops the slots free by `now` from the head of an ascending list. */
function dropFreed(times: number[], now: number): void {
  let freed = 0;
  while (freed < times.length && times[freed] <= now) freed++;
  times.splice(0, freed);
}
