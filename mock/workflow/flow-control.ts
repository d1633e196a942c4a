// Flow control per key: at most `parallelism` deliveries in flight, and at most `rate` started per
// `period`. Waiting deliveries start in arrival order as room appears; none is ever dropped.

export interface FlowLimits {
  readonly parallelism?: number;
  readonly rate?: number;
  /** Milliseconds (default 1000). */
  readonly period: number;
}

/** `parallelism=2, rate=10, period=1m` (each part optional, at least one of parallelism or rate). */
export function parseFlowControlValue(text: string, parsePeriod: (value: string) => number | undefined): FlowLimits | string {
  const limits: { parallelism?: number; rate?: number; period: number } = { period: 1000 };
  for (const part of text.split(',').map((piece) => piece.trim()).filter(Boolean)) {
    const [name, value] = part.split('=').map((piece) => piece?.trim());
    if (name === 'parallelism' || name === 'rate') {
      if (!/^\d+$/.test(value ?? '') || Number(value) < 1) return `${name} must be a whole number of at least 1, got "${value ?? ''}"`;
      limits[name] = Number(value);
    } else if (name === 'period') {
      const period = /^\d+$/.test(value ?? '') ? Number(value) * 1000 : parsePeriod(value ?? '');
      if (period === undefined || period <= 0) return `period must be a duration such as 1s or 1m, got "${value ?? ''}"`;
      limits.period = period;
    } else {
      return `unknown setting "${name}": use parallelism=<n>, rate=<n>, period=<duration>`;
    }
  }
  if (limits.parallelism === undefined && limits.rate === undefined) return 'give parallelism=<n> and/or rate=<n>';
  return limits;
}

interface KeyState {
  inFlight: number;
  /** Start times inside the current period, oldest first. */
  readonly started: number[];
  /** Deliveries waiting for room, in arrival order. */
  readonly queue: (() => void)[];
  timerPending: boolean;
}

export class FlowControl {
  private readonly keys = new Map<string, KeyState>();

  /** Resolves when a delivery under `key` may start; call the returned release when it ends. */
  acquire(key: string, limits: FlowLimits, now: () => number, wait: (ms: number) => Promise<void>): Promise<() => void> {
    const state = this.keys.get(key) ?? { inFlight: 0, started: [], queue: [], timerPending: false };
    this.keys.set(key, state);
    return new Promise((resolve) => {
      state.queue.push(() =>
        resolve(() => {
          state.inFlight--;
          this.pump(state, limits, now, wait);
        }),
      );
      this.pump(state, limits, now, wait);
    });
  }

  /** Starts queued deliveries from the head while the limits allow, so nobody overtakes a waiter. */
  private pump(state: KeyState, limits: FlowLimits, now: () => number, wait: (ms: number) => Promise<void>): void {
    while (state.queue.length > 0) {
      const time = now();
      while (state.started.length > 0 && state.started[0] <= time - limits.period) state.started.shift();
      if (limits.parallelism !== undefined && state.inFlight >= limits.parallelism) return;
      if (limits.rate !== undefined && state.started.length >= limits.rate) {
        if (!state.timerPending) {
          state.timerPending = true;
          void wait(state.started[0] + limits.period - time).then(() => {
            state.timerPending = false;
            this.pump(state, limits, now, wait);
          });
        }
        return;
      }
      state.inFlight++;
      state.started.push(time);
      state.queue.shift()!();
    }
  }
}
