// Reads one HTTP/1.1 response from the bytes of a keep-alive connection, however they are split:
// status line and headers, then a body framed by Content-Length, by chunked encoding, or by the
// connection closing. Interim 1xx responses are skipped. Pure: sockets live in store-connection.ts.
// Every byte it keeps is bounded: the head by MAX_HEAD_BYTES, everything after it (the body and a
// chunked body's size lines and trailers) by the `maxAnswerBytes` it is built with, checked before
// the bytes are kept: a declared Content-Length or chunk size over the bound is refused at once,
// and a body framed by the close as it arrives.

export interface Http1Response {
  readonly status: number;
  readonly body: Buffer;
  /** False when the server said `Connection: close` or framed the body by closing. */
  readonly keepAlive: boolean;
}

export class Http1ProtocolError extends Error {
  constructor(message: string) {
    super(`the key-value store broke HTTP/1.1: ${message}`);
    this.name = 'Http1ProtocolError';
  }
}

const HEAD_END = Buffer.from('\r\n\r\n');
const LINE_END = Buffer.from('\r\n');
/** A head larger than this is not a key-value store's answer. */
const MAX_HEAD_BYTES = 64 * 1024;

type BodyFraming = { kind: 'length'; remaining: number } | { kind: 'chunked'; phase: 'size' | 'data' | 'data-end' | 'trailers'; remaining: number } | { kind: 'close' };

/** An answer over the parser's bound: the connection cannot be used past it. */
export class StoreAnswerTooLargeError extends Error {
  constructor(maxAnswerBytes: number, seen: string) {
    super(`the key-value store answered more than the plugin reads in one answer (${maxAnswerBytes} bytes): ${seen}`);
    this.name = 'StoreAnswerTooLargeError';
  }
}

export class Http1ResponseParser {
  private pending: Buffer = Buffer.alloc(0);
  /** Bytes of the current response read after its head: its body and a chunked body's framing. */
  private answerBytes = 0;
  private status = 0;
  private keepAlive = true;
  private framing: BodyFraming | undefined;
  private bodyParts: Buffer[] = [];

  constructor(private readonly maxAnswerBytes: number) {}

  /** Feeds bytes; returns the response once it is complete. Bytes past its end are a protocol error. */
  push(chunk: Buffer): Http1Response | undefined {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    while (!this.framing) {
      if (!this.readHead()) return undefined;
    }
    const response = this.readBody();
    if (response && this.pending.length > 0) throw new Http1ProtocolError('bytes after the end of a response');
    return response;
  }

  /** The connection ended: completes a body framed by the close, else the response is truncated. */
  end(): Http1Response {
    if (this.framing?.kind === 'close') return this.complete(false);
    throw new Http1ProtocolError(this.framing || this.pending.length > 0 ? 'the connection closed in the middle of a response' : 'the connection closed without a response');
  }

  private readHead(): boolean {
    const headEnd = this.pending.indexOf(HEAD_END);
    if (headEnd < 0) {
      if (this.pending.length > MAX_HEAD_BYTES) throw new Http1ProtocolError('a response head over 64 KiB');
      return false;
    }
    const lines = this.pending.toString('latin1', 0, headEnd).split('\r\n');
    this.pending = this.pending.subarray(headEnd + HEAD_END.length);
    const statusLine = /^HTTP\/1\.([01]) (\d{3})/.exec(lines[0]);
    if (!statusLine) throw new Http1ProtocolError(`a status line ${JSON.stringify(lines[0].slice(0, 40))}`);
    const status = Number(statusLine[2]);
    // 100 Continue and other interim answers come before the real one.
    if (status >= 100 && status < 200) return true;
    let contentLength: number | undefined;
    let chunked = false;
    let keepAlive = statusLine[1] === '1';
    for (let index = 1; index < lines.length; index++) {
      const line = lines[index];
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim().toLowerCase();
      if (name === 'content-length') {
        if (!/^\d+$/.test(value)) throw new Http1ProtocolError(`Content-Length ${JSON.stringify(value)}`);
        contentLength = Number(value);
        if (contentLength > this.maxAnswerBytes) throw new StoreAnswerTooLargeError(this.maxAnswerBytes, `Content-Length ${value}`);
      } else if (name === 'transfer-encoding') chunked = value.split(',').pop()!.trim() === 'chunked';
      else if (name === 'connection') keepAlive = value.includes('close') ? false : value.includes('keep-alive') || keepAlive;
    }
    this.status = status;
    this.keepAlive = keepAlive;
    this.framing = chunked
      ? { kind: 'chunked', phase: 'size', remaining: 0 }
      : contentLength !== undefined
        ? { kind: 'length', remaining: contentLength }
        : status === 204 || status === 304
          ? { kind: 'length', remaining: 0 }
          : { kind: 'close' };
    return true;
  }

  private readBody(): Http1Response | undefined {
    const framing = this.framing!;
    if (framing.kind === 'close') {
      this.takeBody(this.pending.length);
      return undefined;
    }
    if (framing.kind === 'length') {
      framing.remaining -= this.takeBody(Math.min(framing.remaining, this.pending.length));
      return framing.remaining === 0 ? this.complete(this.keepAlive) : undefined;
    }
    return this.readChunks(framing as Extract<BodyFraming, { kind: 'chunked' }>);
  }

  private readChunks(framing: Extract<BodyFraming, { kind: 'chunked' }>): Http1Response | undefined {
    for (;;) {
      if (framing.phase === 'data') {
        framing.remaining -= this.takeBody(Math.min(framing.remaining, this.pending.length));
        if (framing.remaining > 0) return undefined;
        framing.phase = 'data-end';
      }
      const lineEnd = this.pending.indexOf(LINE_END);
      if (lineEnd < 0) {
        this.count(this.pending.length, 'a chunked body');
        return undefined;
      }
      this.count(lineEnd + LINE_END.length, 'a chunked body');
      this.answerBytes += lineEnd + LINE_END.length;
      const line = this.pending.toString('latin1', 0, lineEnd);
      this.pending = this.pending.subarray(lineEnd + LINE_END.length);
      if (framing.phase === 'data-end') {
        if (line !== '') throw new Http1ProtocolError('a chunk longer than its size');
        framing.phase = 'size';
      } else if (framing.phase === 'size') {
        const size = /^([0-9a-fA-F]+)(?:;.*)?$/.exec(line.trim());
        if (!size) throw new Http1ProtocolError(`a chunk size ${JSON.stringify(line.slice(0, 20))}`);
        framing.remaining = size[1].length > 12 ? Infinity : parseInt(size[1], 16);
        this.count(framing.remaining, `a chunk of ${size[1].length > 12 ? 'over 2^48' : framing.remaining} bytes`);
        framing.phase = framing.remaining === 0 ? 'trailers' : 'data';
      } else if (line === '') {
        return this.complete(this.keepAlive);
      }
    }
  }

  /** Refuses the answer when `more` bytes after those already read would pass the bound. */
  private count(more: number, what: string): void {
    if (this.answerBytes + more > this.maxAnswerBytes) throw new StoreAnswerTooLargeError(this.maxAnswerBytes, `${what}, after ${this.answerBytes} bytes`);
  }

  /** Moves `count` bytes from the unread input to the body. */
  private takeBody(count: number): number {
    if (count > 0) {
      this.count(count, 'a body');
      this.answerBytes += count;
      this.bodyParts.push(this.pending.subarray(0, count));
      this.pending = this.pending.subarray(count);
    }
    return count;
  }

  private complete(keepAlive: boolean): Http1Response {
    const body = this.bodyParts.length === 1 ? this.bodyParts[0] : Buffer.concat(this.bodyParts);
    const response = { status: this.status, body, keepAlive };
    this.framing = undefined;
    this.bodyParts = [];
    this.status = 0;
    this.answerBytes = 0;
    return response;
  }
}
