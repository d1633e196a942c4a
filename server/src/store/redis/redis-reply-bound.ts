// The bound on one Redis reply, checked while its bytes arrive. ioredis's decoder keeps a reply's
// pieces until the reply ends, with no limit of its own, so a confused or hostile Redis (or a huge
// value someone wrote under the prefix: a 100 MB string read by the usage view, a giant set read as
// the deny list) would be buffered whole. The REST transport caps one answer at MAX_ANSWER_BYTES
// (rest-requester.ts); this is the same cap per reply on the Redis transport.
// A ReplyMeter follows the reply framing of RESP2 and RESP3 (https://redis.io/docs/latest/develop/reference/protocol-spec/)
// without keeping any of it: a declared length or element count over the bound is refused when its
// header is read, before any of its body arrives, and a reply's bytes are counted chunk by chunk.
// It must end each reply where ioredis's decoder (ioredis/built/resp/decoder.js) does, and the
// decoder trusts the framing: it folds any byte of a length into the number (`$zzzzzzzz` announces
// 800 MB), skips fixed counts of bytes after `$-`, `_` and `#`, and ends a line at its CR, taking
// the next byte for the LF. A hostile Redis could frame replies that the meter read as short ones
// while the decoder kept every byte for one it waited for (trust round 5). So the meter reads only
// the framing Redis writes (digits in lengths, `-1` for nulls, CRLF after each line, `t` or `f`)
// and refuses any other, as it refuses a reply over the bound; RESP3's attribute type (`|`), which
// the decoder does not know and Redis 7.0 sends to no command the plugin uses, is refused too.
// Its state is a few numbers: header and simple lines are read a byte at a time and blob bodies
// skipped by count, so it costs one pass over what the socket delivers (about 100 ns for the
// 68-byte chunk of a request's two script replies, best of 15 rounds of 300,000; 87 ns before it
// checked the framing).
// Over the bound, every command waiting on that connection fails with RedisReplyTooLargeError (a
// store failure: the failure mode applies), the socket is destroyed (not ended: a hostile Redis
// would keep sending for ioredis's 2 s of disconnectTimeout) and ioredis connects again. The chunk
// that crossed the bound does not reach the decoder, so what it keeps is the bound at most; a
// malformed reply fails them the same way (RedisMalformedReplyError).
import type { Cluster, Redis } from 'ioredis';
import { MAX_ANSWER_BYTES } from '../rest/rest-requester';

/** A reply over the bound: the connection it came on was dropped. */
class RedisReplyTooLargeError extends Error {
  constructor(maxReplyBytes: number) {
    super(`Redis answered more than the plugin reads in one reply (${maxReplyBytes} bytes): the connection was dropped`);
    this.name = 'RedisReplyTooLargeError';
  }
}

/** A reply framed otherwise than Redis frames it, which ioredis's decoder could misread: the connection was dropped. */
class RedisMalformedReplyError extends Error {
  constructor() {
    super('Redis sent a reply that is not well-formed RESP: the connection was dropped');
    this.name = 'RedisMalformedReplyError';
  }
}

/** Why a connection must be dropped. */
export type ReplyFault = 'too large' | 'malformed';

const CR = 0x0d;
const LF = 0x0a;
const MINUS = 0x2d;
const DIGIT_0 = 0x30;

/**
 * How the header of each blob and aggregate type reads, by type byte: values announced per unit of
 * its number (0 for a byte length followed by that many bytes, 1 for an element count, 2 for a
 * map's key and value), whether it may be the null `-1` (the decoder takes `-` as `-1\r\n` only
 * for `$`, `!`, `*` and `>`) and the least length (a verbatim string's 4 bytes of `txt:`: the
 * decoder reads them whatever the length says).
 */
interface HeaderType {
  readonly perUnit: number;
  readonly nullable: boolean;
  readonly least: number;
}
const HEADER_TYPES: readonly (HeaderType | undefined)[] = (() => {
  const types: (HeaderType | undefined)[] = new Array(256).fill(undefined);
  const add = (type: string, perUnit: number, nullable: boolean, least = 0): void => {
    types[type.charCodeAt(0)] = { perUnit, nullable, least };
  };
  add('$', 0, true);
  add('!', 0, true);
  add('=', 0, false, 4);
  add('*', 1, true);
  add('>', 1, true);
  add('~', 1, false);
  add('%', 2, false);
  return types;
})();

/** Types read to the end of their line (simple string, error, number, big number, double), 1 by type byte: the decoder ends them at CR. */
const LINE_TYPES: Uint8Array = (() => {
  const types = new Uint8Array(256);
  for (const type of ['+', '-', ':', '(', ',']) types[type.charCodeAt(0)] = 1;
  return types;
})();
const NULL_TYPE = 0x5f; // _
const BOOLEAN_TYPE = 0x23; // #
const TRUE = 0x74; // t
const FALSE = 0x66; // f

const enum Reading {
  /** The type byte of the next value. */
  Type,
  /** The digits of a length or count, up to CR. */
  Header,
  /** The LF after a header's CR. */
  HeaderEnd,
  /** The rest of a line, up to CR. */
  Line,
  /** The LF after a line's CR. */
  LineEnd,
  /** A boolean's `t` or `f`. */
  Boolean,
  /** Bytes that must be exactly `literal`: the rest of a null (`-1\r\n`, `_\r\n`) or a boolean's CRLF. */
  Literal,
  /** A blob's bytes and its CRLF. */
  Body,
}

export class ReplyMeter {
  private reading = Reading.Type;
  /** The header being read: its type, its number and whether it has digits yet. */
  private header: HeaderType = { perUnit: 0, nullable: false, least: 0 };
  private headerNumber = 0;
  private headerDigits = false;
  private literal = '';
  private literalAt = 0;
  private bodyLeft = 0;
  /** Values the reply being read still owes (0 between replies). */
  private valuesLeft = 0;
  /** Bytes of the reply being read, up to the chunk it is in. */
  private replyBytes = 0;

  constructor(private readonly maxReplyBytes: number) {}

  /** Reads one chunk of what Redis sent; answers why the connection must be dropped, if it must. */
  refuses(chunk: Buffer): ReplyFault | undefined {
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
          const type = chunk[index++];
          const header = HEADER_TYPES[type];
          if (header !== undefined) {
            this.header = header;
            this.headerNumber = 0;
            this.headerDigits = false;
            this.reading = Reading.Header;
          } else if (LINE_TYPES[type] === 1) this.reading = Reading.Line;
          else if (type === NULL_TYPE) this.expect('\r\n');
          else if (type === BOOLEAN_TYPE) this.reading = Reading.Boolean;
          // The decoder throws on any other type byte: nothing to keep reading.
          else return 'malformed';
          break;
        }
        case Reading.Header: {
          const byte = chunk[index++];
          if (byte >= DIGIT_0 && byte <= DIGIT_0 + 9) {
            this.headerNumber = this.headerNumber * 10 + byte - DIGIT_0;
            this.headerDigits = true;
            // A length or count over the bound is refused before anything it announces arrives.
            if (this.headerNumber > this.maxReplyBytes) return 'too large';
          } else if (byte === CR && this.headerDigits) this.reading = Reading.HeaderEnd;
          else if (byte === MINUS && !this.headerDigits && this.header.nullable) this.expect('1\r\n');
          // The decoder folds any byte into the number (`$z` is a length of 74): only digits are read alike.
          else return 'malformed';
          break;
        }
        case Reading.HeaderEnd: {
          if (chunk[index++] !== LF) return 'malformed';
          if (!this.headerRead()) return 'malformed';
          break;
        }
        case Reading.Line: {
          // Lines are a few bytes (a number, OK, an error): a loop is cheaper here than indexOf's call.
          while (index < chunk.length && chunk[index] !== CR) index++;
          if (index < chunk.length) {
            index++;
            this.reading = Reading.LineEnd;
          }
          break;
        }
        case Reading.LineEnd: {
          // The decoder skips the byte after a line's CR, whatever it is.
          if (chunk[index++] !== LF) return 'malformed';
          this.valueRead();
          break;
        }
        case Reading.Boolean: {
          const byte = chunk[index++];
          if (byte !== TRUE && byte !== FALSE) return 'malformed';
          this.expect('\r\n');
          break;
        }
        case Reading.Literal: {
          // The decoder skips these bytes by count without reading them.
          if (chunk[index++] !== this.literal.charCodeAt(this.literalAt++)) return 'malformed';
          if (this.literalAt === this.literal.length) this.valueRead();
          break;
        }
        case Reading.Body: {
          const taken = Math.min(this.bodyLeft, chunk.length - index);
          index += taken;
          this.bodyLeft -= taken;
          if (this.bodyLeft === 0) this.valueRead();
          break;
        }
      }
      // A reply that just ended, in this chunk.
      if (this.valuesLeft === 0 && this.replyBytes + index - from > this.maxReplyBytes) return 'too large';
    }
    if (this.valuesLeft === 0) return undefined;
    this.replyBytes += chunk.length - from;
    return this.replyBytes > this.maxReplyBytes ? 'too large' : undefined;
  }

  /** Reads `literal` next, then counts the value read. */
  private expect(literal: string): void {
    this.literal = literal;
    this.literalAt = 0;
    this.reading = Reading.Literal;
  }

  /** After a header's CRLF; false when its number is less than its type allows. */
  private headerRead(): boolean {
    const number = this.headerNumber;
    if (number < this.header.least) return false;
    if (this.header.perUnit === 0) {
      this.bodyLeft = number + 2;
      this.reading = Reading.Body;
      return true;
    }
    this.valuesLeft += number * this.header.perUnit;
    this.valueRead();
    return true;
  }

  private valueRead(): void {
    this.reading = Reading.Type;
    this.valuesLeft--;
  }
}

/** ioredis's own way out of a connection it cannot parse (its decoder's errors take it): every waiting command rejects with `error`. */
interface FatalErrorRecovery {
  recoverFromFatalError(commandError: Error, error: Error, options: { offlineQueue: boolean }): void;
}

/**
 * Meters each connection `node` opens, from its first byte. The meter sits in front of the socket's
 * 'data' event rather than being one more listener of it: a listener cannot keep a chunk from the
 * others, and ioredis's decoder, given some framing the meter refuses (`$*\r\n` and a byte after
 * it: a length of -6, which steps it back over the header), delivers one reply forever and holds the
 * event loop (trust round 5 finding 3). A chunk the meter refuses reaches no reader.
 */
function boundRepliesOfNode(node: Redis, maxReplyBytes: number): void {
  // ioredis emits 'connect' on the next tick after the stream connected and its decoder listens, before any reply can arrive.
  node.on('connect', () => {
    const stream = node.stream;
    const meter = new ReplyMeter(maxReplyBytes);
    const emit = stream.emit.bind(stream) as (event: string | symbol, ...args: unknown[]) => boolean;
    stream.emit = ((event: string | symbol, ...args: unknown[]): boolean => {
      if (event !== 'data') return emit(event, ...args);
      // What arrives after the connection was dropped is read by no one.
      if (stream.destroyed) return false;
      const fault = meter.refuses(args[0] as Buffer);
      if (fault === undefined) return emit(event, ...args);
      const error = fault === 'too large' ? new RedisReplyTooLargeError(maxReplyBytes) : new RedisMalformedReplyError();
      (node as unknown as FatalErrorRecovery).recoverFromFatalError(error, error, { offlineQueue: false });
      stream.destroy();
      return false;
    }) as typeof stream.emit;
  });
}

/** Bounds every reply `client` reads, on each node of a Cluster as ioredis adds it. */
export function boundReplies(client: Redis | Cluster, isCluster: boolean, maxReplyBytes = MAX_ANSWER_BYTES): void {
  if (isCluster) client.on('+node', (node: Redis) => boundRepliesOfNode(node, maxReplyBytes));
  else boundRepliesOfNode(client as Redis, maxReplyBytes);
}
