// Test support: waiting for what a server does in its own time (a subscription registered, a
// client's leaving noticed) by reading again until it holds, up to a deadline, instead of a fixed
// sleep that is too short on a loaded machine and wasted on an idle one. The test then asserts the
// value it got, exactly.
import { setTimeout as delay } from 'node:timers/promises';

/** `read()` again every 10 ms until `holds` accepts its value or `withinMs` passes; answers the last value. */
export async function eventually<T>(read: () => T | Promise<T>, holds: (value: T) => boolean, withinMs = 5000): Promise<T> {
  // performance.now(): the fake Date of window tests stands still.
  const deadline = performance.now() + withinMs;
  for (;;) {
    const value = await read();
    if (holds(value) || performance.now() >= deadline) return value;
    await delay(10);
  }
}
