// Range checks for the local servers' numeric bounds, so a bad option is a clear error naming it at
// start: a bound of 0 or NaN would refuse or stall everything (a linger bound of 0 destroys the socket
// with its 413 unread, the EPIPE issue 34 finding 7 removed), and both servers read these the same way.
import type { ConnectionBounds } from './bounded-server';

/** The connection bounds every local server takes (bounded-server.ts), each a whole number of at least 1. */
export const CONNECTION_BOUND_NAMES: ReadonlyArray<keyof ConnectionBounds> = ['headersTimeoutMs', 'requestTimeoutMs', 'maxConnections', 'lingerTimeoutMs', 'maxLingerBytes'];

/** Throws a RangeError naming the first of `names` that `options` gives and that is not a whole number of at least 1. */
export function checkWholeNumbers<O extends object>(server: string, options: O, names: ReadonlyArray<keyof O & string>): void {
  for (const name of names) {
    const value = options[name];
    if (value !== undefined && !(Number.isSafeInteger(value) && (value as number) >= 1)) throw new RangeError(`${server} option ${name} must be a whole number of at least 1, got ${String(value)}`);
  }
}
