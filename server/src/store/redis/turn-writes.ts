// A connection's writes during one turn of the event loop, written as one string when the turn ends
// (redis-command-turn.ts holds and releases each ready connection as it corked them before). ioredis
// writes each command as a string of its own; corked, a turn's two commands (the limit script and
// the deny check's SMISMEMBER) left through the Writable's buffer and the socket's `writev` of two
// chunks, where one string goes through one `Socket._write`: under callgrind, a socket's turn of the
// two commands cost 26.9k instructions corked and 18.1k as one string (40,000 turns, one
// setImmediate each), and a whole decision through the Koa middleware 171.1k where it cost 183.6k
// (issue 36, `npm run bench:instructions -- --only redis://`, 5 rounds). Bytes keep their order:
// anything but a plain string (a Buffer, an encoding, a callback) first writes what was gathered,
// then goes through as it came, and `end()` first writes what was gathered, as a corked stream's
// end flushed it: ioredis ends a connection with a bare `end()` when it reconnects on a reply (a
// READONLY from Sentinel's old primary), and the commands of a turn held meanwhile must reach it, be
// answered READONLY and be sent again to the new primary (the review of this change: gathered and dropped, they
// were neither rejected nor sent again under Sentinel's options, and timed out). A connection
// destroyed meanwhile is written nothing: ioredis fails the commands it was waiting on (on one node
// at once, on a Cluster it sends them again), or the turn's deadline does. What is gathered is
// written as soon as it passes MAX_GATHERED_CHARS, so the string stays bounded whatever a turn holds.
// (A peer's FIN makes Node replace the socket's `write` with its own, which then bypasses this one:
// Redis answers nothing after its FIN, and ioredis fails what it waited on when the socket closes.)
import type { Writable } from 'node:stream';

/** Past this many characters gathered, a turn's writes leave at once (V8 strings stop at 2^29 - 24). */
const MAX_GATHERED_CHARS = 1 << 20;

/** One connection's writes, held (gathered) from `cork` to `uncork`: the turn's HeldWrites (redis-command-turn.ts). */
export class TurnWrites {
  private parts: string[] | undefined;
  /** Characters in `parts`. */
  private gathered = 0;
  /** The stream's own write. */
  private readonly write: (this: Writable, chunk: string) => boolean;

  constructor(private readonly stream: Writable) {
    const write = stream.write;
    this.write = write as (this: Writable, chunk: string) => boolean;
    const writes = this;
    // Not an arrow function: `arguments` tells ioredis's one-argument writes from any other.
    stream.write = function (this: Writable, chunk: unknown): boolean {
      const parts = writes.parts;
      if (parts !== undefined) {
        if (typeof chunk === 'string' && arguments.length === 1) {
          parts.push(chunk);
          writes.gathered += chunk.length;
          if (writes.gathered > MAX_GATHERED_CHARS) writes.release(parts);
          return true;
        }
        writes.release(parts);
      }
      return write.apply(this, arguments as unknown as Parameters<Writable['write']>);
    } as Writable['write'];
    const end = stream.end;
    stream.end = function (this: Writable): Writable {
      if (writes.parts !== undefined) writes.release(writes.parts);
      return end.apply(this, arguments as unknown as Parameters<Writable['end']>);
    } as Writable['end'];
  }

  /** Gathers the strings written from now until `uncork`. */
  cork(): void {
    this.parts ??= [];
  }

  /** Writes what was gathered, as one string, and writes through from now on. */
  uncork(): void {
    const parts = this.parts;
    this.parts = undefined;
    if (parts !== undefined) this.release(parts);
  }

  private release(parts: string[]): void {
    if (parts.length === 0) return;
    const gathered = parts.length === 1 ? parts[0] : parts.join('');
    parts.length = 0;
    this.gathered = 0;
    if (this.stream.writable) this.write.call(this.stream, gathered);
  }
}

const turnWrites = new WeakMap<Writable, TurnWrites>();

/** The turn's writes of `stream`, made the first time it is asked for. */
export function turnWritesOf(stream: Writable): TurnWrites {
  let writes = turnWrites.get(stream);
  if (writes === undefined) {
    writes = new TurnWrites(stream);
    turnWrites.set(stream, writes);
  }
  return writes;
}
