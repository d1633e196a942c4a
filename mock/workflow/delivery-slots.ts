// A cap on calls the server makes at once (deliveries and failure callbacks, all destinations
// together). Without it a batch of thousands of runs opened as many sockets, ran out of file
// descriptors and failed runs that a healthy receiver would have taken. Calls over the cap wait in
// arrival order; they never fail for it.

export class DeliverySlots {
  private inUse = 0;
  private readonly waiting: (() => void)[] = [];
  /** Index of the oldest waiter: shifting a long array on every release would be quadratic. */
  private head = 0;

  constructor(private readonly capacity: number) {}

  /** Resolves when a slot is free; call the returned function exactly once to give it back. */
  async acquire(): Promise<() => void> {
    if (this.inUse < this.capacity) this.inUse++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.handOver();
    };
  }

  /** The slot passes straight to the oldest waiter, so `inUse` does not change then. */
  private handOver(): void {
    if (this.head < this.waiting.length) {
      const next = this.waiting[this.head++];
      // Drop the served prefix once it is half the array, so a queue that never empties stays bounded.
      if (this.head * 2 >= this.waiting.length) {
        this.waiting.splice(0, this.head);
        this.head = 0;
      }
      next();
    } else {
      this.inUse--;
    }
  }
}
