// The bound on one Redis reply, checked while its bytes arrive. ioredis's decoder keeps a reply's
// pieces until the reply ends, with no limit of its own, so a confused or hostile Redis (or a huge
// value someone wrote under the prefix: a 100 MB string read by the usage view, a giant set read as
// the deny list) would be buffered whole. The REST transport caps one answer at MAX_ANSWER_BYTES
// (store-requester.ts); this is the same cap per reply on the Redis transport.
// A ReplyMeter follows the reply framing of RESP2 and RESP3 (https://redis.io/docs/latest/develop/reference/protocol-spec/)
// without keeping any of it: a declared length or element count over the bound is refused when its
// header is read, before any of its body arrives, and a reply's bytes are counted chunk by chunk.
// RESP3's attribute type (`|`, which Redis 7.0 sends to no command the plugin uses) is read as a
// line, its pairs as replies of their own: their bytes are still counted, each against the bound.
// Its state is a few numbers: header and simple lines are read a byte at a time and blob bodies
// skipped by count, so it costs one pass over what the socket delivers (about 85 ns for the
// 68-byte chunk of a request's two script replies, best of 15 rounds of 300,000).
// Over the bound, every command waiting on that connection fails with RedisReplyTooLargeError (a
// store failure: the failure mode applies), the socket is destroyed (not ended: a hostile Redis
// would keep sending for ioredis's 2 s of disconnectTimeout) and ioredis connects again. The chunk
// that crossed the bound still reaches the decoder, so what is kept is the bound plus one socket
// read (64 KiB at most on TCP, 16 KiB on TLS).
import type { Cluster, Redis } from 'ioredis';
import { MAX_ANSWER_BYTES } from './store-requester';

/** A reply over the bound: the connection it came on was dropped. */
class RedisReplyTooLargeError extends Error {
  constructor(maxReplyBytes: number) {
    super(`Redis answered more than the plugin reads in one reply (${maxReplyBytes} bytes): the connection was dropped`);
    this.name = 'RedisReplyTooLargeError';
  }
}

const LF = 0x0a;
const MINUS = 0x2d;
const DIGIT_0 = 0x30;
/**
 * Values announced per unit of a header's number, by type byte: 0 for a byte length followed by that
 * many bytes (blob string `$`, verbatim string `=`, blob error `!`), 1 for an element count (array
 * `*`, set `~`, push `>`), 2 for a map `%` (a key and a value each); -1 for a type read to the end
 * of its line.
 */
const HEADER_TYPES: Int8Array = (() => {
  const types = new Int8Array(256).fill(-1);
  for (const [type, perUnit] of [['$', 0], ['=', 0], ['!', 0], ['*', 1], ['~', 1], ['>', 1], ['%', 2]] as const) types[type.charCodeAt(0)] = perUnit;
  return types;
})();

const enum Reading {
  /** The type byte of the next value. */
  Type,
  /** The digits of a length or count, up to LF. */
  Header,
  /** The rest of a line: a simple string, error, number, double, boolean, big number or null. */
  Line,
  /** A blob's bytes and its CRLF. */
  Body,
}

export class ReplyMeter {
  private reading = Reading.Type;
  /** The header's HEADER_TYPES entry while reading its digits. */
  private headerPerUnit = 0;
  private headerNumber = 0;
  private headerNegative = false;
  private bodyLeft = 0;
  /** Values the reply being read still owes (0 between replies). */
  private valuesLeft = 0;
  /** Bytes of the reply being read, up to the chunk it is in. */
  private replyBytes = 0;

  constructor(private readonly maxReplyBytes: number) {}

  /** Reads one chunk of what Redis sent; answers whether the reply being read is over the bound. */
  overBound(chunk: Buffer): boolean {
    // Where the reply being read starts in this chunk (0: it began before).
    let from = 0;
    let index = 0;
    while (index < chunk.length) {
      switch (this.reading) {
        case Reading.Type: {
          if (this.valuesLeft === 0) {
            this.valuesLeft = 1;
            this.replyBytes = 0;
            from = index;
          }
          const perUnit = HEADER_TYPES[chunk[index++]];
          if (perUnit >= 0) {
            this.headerPerUnit = perUnit;
            this.headerNumber = 0;
            this.headerNegative = false;
            this.reading = Reading.Header;
          } else this.reading = Reading.Line;
          break;
        }
        case Reading.Header: {
          const byte = chunk[index++];
          if (byte === LF) this.headerRead();
          else if (byte === MINUS) this.headerNegative = true;
          else if (byte >= DIGIT_0 && byte <= DIGIT_0 + 9) {
            this.headerNumber = this.headerNumber * 10 + byte - DIGIT_0;
            // A length or count over the bound is refused before anything it announces arrives.
            if (this.headerNumber > this.maxReplyBytes) return true;
          }
          break;
        }
        case Reading.Line: {
          // Lines are a few bytes (a number, OK, an error): a loop is cheaper here than indexOf's call.
          while (index < chunk.length && chunk[index] !== LF) index++;
          if (index < chunk.length) {
            index++;
            this.reading = Reading.Type;
            this.valueRead();
          }
          break;
        }
        case Reading.Body: {
          const taken = Math.min(this.bodyLeft, chunk.length - index);
          index += taken;
          this.bodyLeft -= taken;
          if (this.bodyLeft === 0) {
            this.reading = Reading.Type;
            this.valueRead();
          }
          break;
        }
      }
      // A reply that just ended, in this chunk.
      if (this.valuesLeft === 0 && this.replyBytes + index - from > this.maxReplyBytes) return true;
    }
    if (this.valuesLeft === 0) return false;
    this.replyBytes += chunk.length - from;
    return this.replyBytes > this.maxReplyBytes;
  }

  private headerRead(): void {
    const number = this.headerNegative ? 0 : this.headerNumber;
    if (this.headerPerUnit === 0) {
      if (this.headerNegative) {
        // RESP2's null blob ($-1): no body.
        this.reading = Reading.Type;
        this.valueRead();
        return;
      }
      this.bodyLeft = number + 2;
      this.reading = Reading.Body;
      return;
    }
    this.valuesLeft += number * this.headerPerUnit;
    this.reading = Reading.Type;
    this.valueRead();
  }

  private valueRead(): void {
    this.valuesLeft--;
  }
}

/** ioredis's own way out of a connection it cannot parse (its decoder's errors take it): every waiting command rejects with `error`. */
interface FatalErrorRecovery {
  recoverFromFatalError(commandError: Error, error: Error, options: { offlineQueue: boolean }): void;
}

/** Meters each connection `node` opens, from its first byte. */
function boundRepliesOfNode(node: Redis, maxReplyBytes: number): void {
  // ioredis emits 'connect' on the next tick after the stream connected and its decoder listens, before any reply can arrive.
  node.on('connect', () => {
    const stream = node.stream;
    const meter = new ReplyMeter(maxReplyBytes);
    // Before the decoder, so the chunk over the bound is the last it is given.
    stream.prependListener('data', (chunk: Buffer) => {
      if (stream.destroyed || !meter.overBound(chunk)) return;
      const error = new RedisReplyTooLargeError(maxReplyBytes);
      (node as unknown as FatalErrorRecovery).recoverFromFatalError(error, error, { offlineQueue: false });
      stream.destroy();
    });
  });
}

/** Bounds every reply `client` reads, on each node of a Cluster as ioredis adds it. */
export function boundReplies(client: Redis | Cluster, isCluster: boolean, maxReplyBytes = MAX_ANSWER_BYTES): void {
  if (isCluster) client.on('+node', (node: Redis) => boundRepliesOfNode(node, maxReplyBytes));
  else boundRepliesOfNode(client as Redis, maxReplyBytes);
}
