// A small RESP2 codec for the redis engine: commands out as arrays of bulk strings, replies in as
// typed replies. Written here because the npm parsers (redis-parser, ioredis's) answer simple and
// bulk strings alike, and the REST API must keep them apart (RESP2 output, the base64 `OK` rule).
import { bytesToBuffer } from '../bytes';
import { array, bulk, error, integer, NIL, NULL_ARRAY, type ErrorReply, type Reply, simple } from '../reply';
import type { ResponseBudget } from '../response-budget';

export function encodeCommand(args: readonly string[]): Buffer {
  return encodeCommands([args]);
}

/** Several commands as one buffer, to go out in one write. */
export function encodeCommands(commands: readonly (readonly string[])[]): Buffer {
  let text = '';
  for (const args of commands) {
    text += `*${args.length}\r\n`;
    for (const arg of args) text += `$${arg.length}\r\n${arg}\r\n`;
  }
  return bytesToBuffer(text);
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
      const end = this.buffer.indexOf('\r\n', this.offset, 'latin1');
      if (end < 0) return undefined;
      if (!this.begun) {
        this.begun = true;
        this.budget = this.budgetOf(this.completedInFeed);
      }
      const kind = this.buffer[this.offset];
      const body = this.buffer.toString('latin1', this.offset + 1, end);
      this.offset = end + 2;
      switch (kind) {
        case 0x2b /* + */:
          this.spend(0, body.length);
          return simple(body);
        case 0x2d /* - */:
          return error(body);
        case 0x3a /* : */:
          return integer(Number.isSafeInteger(Number(body)) ? Number(body) : BigInt(body));
        case 0x24 /* $ */: {
          const length = Number(body);
          if (!Number.isInteger(length)) throw new RespProtocolError(`bad bulk string length ${JSON.stringify(body)}`);
          if (length < 0) return NIL;
          if (this.spend(0, length)) this.skipLength = length + 2;
          else this.bulkLength = length;
          continue;
        }
        case 0x2a /* * */: {
          const count = Number(body);
          if (!Number.isInteger(count)) throw new RespProtocolError(`bad array length ${JSON.stringify(body)}`);
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
