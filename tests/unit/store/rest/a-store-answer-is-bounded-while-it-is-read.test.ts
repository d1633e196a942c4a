// Issue 25 finding 9: the plugin's HTTP client kept whatever a store answered, so a store answering
// one request with 400 MB took the app from 59 to 462 MB RSS before the 503. One answer is now
// bounded (MAX_ANSWER_BYTES): a declared Content-Length over it is refused before any body byte is
// kept, a chunked or close-framed body as its bytes arrive; the call fails as a store failure
// saying so, and the connection is dropped (the store sees it closed long before its answer ends).
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { Redis } from '@upstash/redis';
import { Http1ResponseParser, StoreAnswerTooLargeError } from '../../../../server/src/store/rest/http1-response-parser';
import { MAX_ANSWER_BYTES, PipeliningRequester, StoreUnavailableError } from '../../../../server/src/store/rest/rest-requester';

const MIB = 1024 * 1024;
/** What each hostile store offers to send: four times the bound. */
const OFFERED_BYTES = 4 * MAX_ANSWER_BYTES;

interface HostileStore {
  readonly url: string;
  /** Resolves with the bytes written once the client closed the connection (or everything was sent). */
  readonly sent: Promise<number>;
  close(): Promise<void>;
}

/** A store that answers every request with `head` and then body bytes, 1 MiB at a time, while the client reads. */
async function hostileStore(head: string, piece: (index: number) => Buffer): Promise<HostileStore> {
  let reportSent: (bytes: number) => void = () => undefined;
  const sent = new Promise<number>((resolve) => (reportSent = resolve));
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    let written = 0;
    let index = 0;
    const pump = (): void => {
      while (written < OFFERED_BYTES && !socket.destroyed) {
        const bytes = piece(index++);
        written += bytes.length;
        if (!socket.write(bytes)) return void socket.once('drain', pump);
      }
      reportSent(written);
    };
    socket.on('error', () => reportSent(written));
    socket.on('close', () => reportSent(written));
    socket.once('data', () => {
      socket.write(head);
      pump();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sent,
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}

const filler = Buffer.alloc(MIB, 'x');

describe('a store answer over MAX_ANSWER_BYTES fails the call while it is read, and drops the connection', () => {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it.each([
    ['a Content-Length over the bound', `HTTP/1.1 200 OK\r\ncontent-length: ${OFFERED_BYTES}\r\n\r\n`, () => filler, `Content-Length ${OFFERED_BYTES}`],
    ['a chunked body that does not end', 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n', () => Buffer.concat([Buffer.from(`${MIB.toString(16)}\r\n`), filler, Buffer.from('\r\n')]), 'a chunk of 1048576 bytes'],
    ['a body framed by the connection closing', 'HTTP/1.0 200 OK\r\n\r\n', () => filler, 'a body'],
  ])('%s: the call fails as a store failure naming the bound, and the store sees the connection closed early', async (_case, head, piece, seen) => {
    const store = await hostileStore(head, piece);
    cleanups.push(() => store.close());
    const requester = new PipeliningRequester(store.url, 'token', 20_000);
    cleanups.push(() => requester.close());
    const failure = await new Redis(requester).get('k').then(() => undefined, (error: unknown) => error);
    expect(failure).toBeInstanceOf(StoreUnavailableError);
    expect((failure as Error).message).toContain(`the key-value store answered more than the plugin reads in one answer (${MAX_ANSWER_BYTES} bytes): ${seen}`);
    // Socket buffers on both sides hold a few MiB at most: far from everything offered.
    expect(await store.sent).toBeLessThan(MAX_ANSWER_BYTES + 16 * MIB);
  });

  const head = (framing: string) => Buffer.from(`HTTP/1.1 200 OK\r\n${framing}\r\n\r\n`);
  // A chunked body's size lines and end count too: a body of 53 bytes is `35\r\n`, 53 bytes, `\r\n0\r\n\r\n`, 64 in all.
  it.each([
    ['Content-Length', (size: number) => [head(`content-length: ${size}`), Buffer.alloc(size, 'a')], 0],
    ['chunked', (size: number) => [head('transfer-encoding: chunked'), Buffer.from(`${size.toString(16)}\r\n${'a'.repeat(size)}\r\n0\r\n\r\n`)], 11],
  ])('the parser reads a %s answer of exactly its bound and refuses one byte more', (_framing, answer, framingBytes) => {
    const bound = 64;
    const read = (size: number) => {
      const parser = new Http1ResponseParser(bound);
      let response;
      for (const bytes of answer(size)) response = parser.push(bytes) ?? response;
      return response?.body.length;
    };
    expect(read(bound - framingBytes)).toBe(bound - framingBytes);
    expect(() => read(bound - framingBytes + 1)).toThrow(StoreAnswerTooLargeError);
  });

  it('the parser refuses a chunk-size line that never ends once it passes the bound', () => {
    const parser = new Http1ResponseParser(64);
    parser.push(Buffer.from('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n'));
    expect(parser.push(Buffer.from('0'.repeat(64)))).toBeUndefined();
    expect(() => parser.push(Buffer.from('0'))).toThrow(new StoreAnswerTooLargeError(64, 'a chunked body, after 0 bytes'));
  });
});
