// Test support for flow-control properties: a clock that moves only to the next due event. Events
// fire in time order (in the order given when due together), each followed by one turn of the
// event loop, so the promises it resolved have run before the clock moves on.

const flush = () => new Promise((resolve) => setImmediate(resolve));

export class SimulatedClock {
  private time = 0;
  private readonly events: { at: number; fire: () => void }[] = [];

  readonly now = (): number => this.time;

  /** What FlowControl gets as its wait: resolves once the clock has moved `ms` on. */
  readonly wait = (ms: number): Promise<void> => new Promise((wake) => this.at(this.time + ms, wake));

  at(time: number, fire: () => void): void {
    this.events.push({ at: time, fire });
  }

  /** Fires every event, those the events add included, until none is left. */
  async run(): Promise<void> {
    while (this.events.length > 0) {
      this.events.sort((a, b) => a.at - b.at);
      const next = this.events.shift()!;
      this.time = Math.max(this.time, next.at);
      next.fire();
      await flush();
    }
  }
}
