// A small RESP2 codec for the redis engine: commands out as arrays of bulk strings, replies in as
// typed replies. Written here because the npm parsers (redis-parser, ioredis's) answer simple and
// bulk strings alike, and the REST API must keep them apart (RESP2 output, the base64 `OK` rule).
import { array, bulk, error, integer, NIL, NULL_ARRAY, type ErrorReply, type Reply, simple } from '../reply';
import type { ResponseBudget } from '../response-budget';

export function encodeCommand(args: readonly string[]): string {
  return encodeCommands([args]);
}

/**
 * Several commands as one byte string (one character per byte: arguments are byte strings), to be
 * written as latin1 in one write. A string, not a Buffer: the turn's commands are joined and
 * converted once, where a Buffer per request cost an allocation and a copy more (connection.ts).
 */
export function encodeCommands(commands: readonly (readonly string[])[]): string {
  let text = '';
  for (const args of commands) {
    text += `*${args.length}\r\n`;
    for (const arg of args) text += `$${arg.length}\r\n${arg}\r\n`;
  }
  return text;
}

const CR = 13;
const LF = 10;
const COLON = 0x3a;
const DOLLAR = 0x24;
const STAR = 0x2a;
/** A number's line: its type byte, a sign and up to 20 digits, then CR. */
const SHORT_LINE_BYTES = 24;
/** Digits that always make a safe integer (below 2^53). */
const SAFE_DIGITS = 15;

/**
 * The decimal integer in `buffer[start, end)` (an optional `-`, then 1 to 15 digits), read from the
 * bytes without making a string; undefined for anything else, which the caller reads from its text.
 */
function decimalAt(buffer: Buffer, start: number, end: number): number | undefined {
  const negative = buffer[start] === 0x2d; /* - */
  const first = negative ? start + 1 : start;
  if (first === end || end - first > SAFE_DIGITS) return undefined;
  let value = 0;
  for (let index = first; index < end; index++) {
    const digit = buffer[index] - 0x30;
    if (digit < 0 || digit > 9) return undefined;
    value = value * 10 + digit;
  }
  return negative ? -value : value;
}

/** Thrown by the parser on bytes that are not RESP2: the connection cannot be trusted any more. */
export class RespProtocolError extends Error {}

interface Frame {
  readonly items: Reply[];
  readonly expected: number;
  received: number;
}

/** The budget of the next reply to begin, given how many replies this feed has completed so far. */
export type BudgetOfReply = (completedInFeed: number) => ResponseBudget | undefined;

/**
 * Incremental parser: feed it chunks as they arrive, get complete replies back. Its state (the
 * arrays being filled, a bulk string's length) survives between chunks, so every byte is parsed
 * once: a reply split over many chunks costs what it costs in one. Bytes that wait for the rest of
 * a line or of a bulk string are kept as a list of chunks and joined once, when complete. Each
 * reply spends its request's budget as its headers arrive (array lengths, string lengths): once the
 * budget refuses, the rest of that reply is read past without being kept (a bulk string's bytes are
 * dropped as they come) and the reply is the budget's refusal, so a reply past the bound is never
 * held whole (issue 25, finding 3).
 */
export class RespParser {
  /** The chunk being parsed, and how far. */
  private buffer: Buffer = Buffer.alloc(0);
  private offset = 0;
  /** Bytes waiting for more: an incomplete line or bulk string, in arrival order. */
  private waiting: Buffer[] = [];
  private waitingLength = 0;
  /** Arrays whose items are still arriving, outermost first. */
  private readonly stack: Frame[] = [];
  /** The length of the bulk string whose header has been read, or -1. */
  private bulkLength = -1;
  /** Bytes of a refused bulk string (and its CRLF) still to drop, or -1. */
  private skipLength = -1;
  /** The budget of the reply being parsed, looked up when it begins. */
  private budget: ResponseBudget | undefined;
  private begun = false;
  /** The budget's refusal once the reply being parsed has passed it: nothing more of it is kept. */
  private refused: ErrorReply | undefined;
  private completedInFeed = 0;

  constructor(private readonly budgetOf: BudgetOfReply = () => undefined) {}

  feed(chunk: Buffer): Reply[] {
    if (this.waiting.length > 0) {
      this.waiting.push(chunk);
      this.waitingLength += chunk.length;
      const complete = this.bulkLength >= 0 ? this.waitingLength >= this.bulkLength + 2 : chunk.includes(10 /* \n */);
      if (!complete) return [];
      this.buffer = Buffer.concat(this.waiting, this.waitingLength);
      this.waiting = [];
      this.waitingLength = 0;
    } else this.buffer = chunk;
    this.offset = 0;
    this.completedInFeed = 0;
    const replies: Reply[] = [];
    for (;;) {
      const reply = this.parseValue();
      if (reply === undefined) break;
      const done = this.complete(reply);
      if (done === undefined) continue;
      replies.push(done);
      this.completedInFeed++;
    }
    if (this.offset < this.buffer.length) {
      const rest = this.buffer.subarray(this.offset);
      this.waiting = [rest];
      this.waitingLength = rest.length;
    }
    this.buffer = Buffer.alloc(0);
    return replies;
  }

  /** The next value at the current offset (an array opens a frame and is not a value yet), or undefined when more bytes are needed. */
  private parseValue(): Reply | undefined {
    for (;;) {
      if (this.skipLength >= 0) {
        const available = this.buffer.length - this.offset;
        if (available < this.skipLength) {
          this.skipLength -= available;
          this.offset = this.buffer.length;
          return undefined;
        }
        this.offset += this.skipLength;
        this.skipLength = -1;
        return NIL;
      }
      if (this.bulkLength >= 0) {
        const end = this.offset + this.bulkLength;
        if (end + 2 > this.buffer.length) return undefined;
        const value = this.buffer.toString('latin1', this.offset, end);
        this.offset = end + 2;
        this.bulkLength = -1;
        return bulk(value);
      }
      const kind = this.buffer[this.offset];
      const end = kind === COLON || kind === DOLLAR || kind === STAR ? this.shortLineEnd() : this.buffer.indexOf('\r\n', this.offset, 'latin1');
      if (end < 0) return undefined;
      if (!this.begun) {
        this.begun = true;
        this.budget = this.budgetOf(this.completedInFeed);
      }
      const start = this.offset + 1;
      this.offset = end + 2;
      switch (kind) {
        case 0x2b /* + */: {
          const body = this.buffer.toString('latin1', start, end);
          this.spend(0, body.length);
          return simple(body);
        }
        case 0x2d /* - */:
          return error(this.buffer.toString('latin1', start, end));
        case COLON:
          return integer(this.integerAt(start, end));
        case DOLLAR: {
          const length = this.lengthAt(start, end, 'bulk string');
          if (length < 0) return NIL;
          if (this.spend(0, length)) this.skipLength = length + 2;
          else this.bulkLength = length;
          continue;
        }
        case STAR: {
          const count = this.lengthAt(start, end, 'array');
          if (count < 0) return NULL_ARRAY;
          if (count === 0) return array([]);
          this.spend(count, 0);
          this.stack.push({ items: [], expected: count, received: 0 });
          continue;
        }
        default:
          throw new RespProtocolError(`unexpected RESP type byte ${JSON.stringify(String.fromCharCode(kind))}`);
      }
    }
  }

  /**
   * The CR of the CRLF that ends the line at the offset, for the short lines of numbers (`:`, `$`,
   * `*`): found byte by byte within their first bytes, where a call to indexOf costs more than the
   * scan; past them, or at a CR without its LF, indexOf answers as for every other line.
   */
  private shortLineEnd(): number {
    const { buffer, offset } = this;
    const limit = Math.min(buffer.length, offset + SHORT_LINE_BYTES);
    for (let index = offset + 1; index < limit; index++) {
      if (buffer[index] !== CR) continue;
      if (index + 1 === buffer.length) return -1;
      if (buffer[index + 1] === LF) return index;
      break;
    }
    return buffer.indexOf('\r\n', offset, 'latin1');
  }

  /** The integer reply's value: read from the bytes when short, else from its text (a BigInt past 2^53). */
  private integerAt(start: number, end: number): number | bigint {
    const value = decimalAt(this.buffer, start, end);
    if (value !== undefined) return value;
    const body = this.buffer.toString('latin1', start, end);
    return Number.isSafeInteger(Number(body)) ? Number(body) : BigInt(body);
  }

  /** A bulk string's or an array's length (-1: nil), refused when it is not an integer. */
  private lengthAt(start: number, end: number, what: string): number {
    const value = decimalAt(this.buffer, start, end);
    if (value !== undefined) return value;
    const body = this.buffer.toString('latin1', start, end);
    const length = Number(body);
    if (!Number.isInteger(length)) throw new RespProtocolError(`bad ${what} length ${JSON.stringify(body)}`);
    return length;
  }

  /** True once the reply being parsed has passed its budget (spending `elements` and `bytes` more first). */
  private spend(elements: number, bytes: number): boolean {
    this.refused ??= this.budget?.spend(elements, bytes);
    return this.refused !== undefined;
  }

  /** Adds a value to the innermost open array, closing every array it completes; the whole reply once complete. */
  private complete(value: Reply): Reply | undefined {
    let done = value;
    for (;;) {
      const frame = this.stack[this.stack.length - 1];
      if (!frame) {
        const reply = this.refused ?? done;
        this.refused = undefined;
        this.budget = undefined;
        this.begun = false;
        return reply;
      }
      if (!this.refused) frame.items.push(done);
      if (++frame.received < frame.expected) return undefined;
      this.stack.pop();
      done = this.refused ?? array(frame.items);
    }
  }
}
