// A small RESP2 codec for the redis engine: commands out as arrays of bulk strings, replies in as
// typed replies. Written here because the npm parsers (redis-parser, ioredis's) answer simple and
// bulk strings alike, and the REST API must keep them apart (RESP2 output, the base64 `OK` rule).
import { bytesToBuffer } from '../bytes';
import { array, bulk, error, integer, NIL, NULL_ARRAY, type Reply, simple } from '../reply';

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
}

/**
 * Incremental parser: feed it chunks as they arrive, get complete replies back. A reply split
 * across chunks is parsed again from its start when the rest arrives.
 */
export class RespParser {
  private buffer: Buffer = Buffer.alloc(0);
  private offset = 0;

  feed(chunk: Buffer): Reply[] {
    this.buffer = this.offset < this.buffer.length ? Buffer.concat([this.buffer.subarray(this.offset), chunk]) : chunk;
    this.offset = 0;
    const replies: Reply[] = [];
    for (;;) {
      const start = this.offset;
      const reply = this.parseReply();
      if (reply === undefined) {
        this.offset = start;
        return replies;
      }
      replies.push(reply);
    }
  }

  /** One whole reply at the current offset, or undefined (offset undefined) when more bytes are needed. */
  private parseReply(): Reply | undefined {
    const stack: Frame[] = [];
    for (;;) {
      const line = this.readLine();
      if (line === undefined) return undefined;
      const kind = line[0];
      const body = line.slice(1);
      let reply: Reply | undefined;
      switch (kind) {
        case '+':
          reply = simple(body);
          break;
        case '-':
          reply = error(body);
          break;
        case ':':
          reply = integer(Number.isSafeInteger(Number(body)) ? Number(body) : BigInt(body));
          break;
        case '$': {
          const length = Number(body);
          if (length < 0) reply = NIL;
          else {
            if (this.offset + length + 2 > this.buffer.length) return undefined;
            reply = bulk(this.buffer.toString('latin1', this.offset, this.offset + length));
            this.offset += length + 2;
          }
          break;
        }
        case '*': {
          const count = Number(body);
          if (count < 0) reply = NULL_ARRAY;
          else if (count === 0) reply = array([]);
          else {
            stack.push({ items: [], expected: count });
            continue;
          }
          break;
        }
        default:
          throw new RespProtocolError(`unexpected RESP type byte ${JSON.stringify(kind)}`);
      }
      // Close every array this reply completes.
      let done: Reply = reply;
      for (;;) {
        const frame = stack[stack.length - 1];
        if (!frame) return done;
        frame.items.push(done);
        if (frame.items.length < frame.expected) break;
        stack.pop();
        done = array(frame.items);
      }
    }
  }

  private readLine(): string | undefined {
    const end = this.buffer.indexOf('\r\n', this.offset, 'latin1');
    if (end < 0) return undefined;
    const line = this.buffer.toString('latin1', this.offset, end);
    this.offset = end + 2;
    return line;
  }
}
