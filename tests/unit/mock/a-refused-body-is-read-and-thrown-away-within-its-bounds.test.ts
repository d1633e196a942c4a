// Issue 34 finding 7: after a 413 both local servers now close lingering (mock/http-kit/
// lingering-close.ts): the rest of the body is read and thrown away so the client sees the answer,
// and an attacker must not be able to use that. Proven here on the servers' shared HTTP kit: an
// endless fast sender is cut off at the byte bound, an endless slow one at the deadline, close()
// does not wait for a lingering socket, and a request pipelined after the refused body is not run.
// Before the fix the server destroyed the socket as soon as the 413 was written, reading nothing after it.
import type { IncomingMessage, Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { closeBoundedServer, CONNECTION_BOUNDS_DEFAULTS, createBoundedServer } from '../../../mock/http-kit/bounded-server';
import { answerFailure, failureAnswer } from '../../../mock/http-kit/error-funnel';
import { listen } from '../../../mock/http-kit/listen';
import type { LingerBounds } from '../../../mock/http-kit/lingering-close';
import { readBody } from '../../../mock/http-kit/read-body';

const LIMIT = 1024;
const MIB = 1024 * 1024;
/** The refusal's status line and body, as the client reads them. */
const ANSWER = `HTTP/1.1 413 Payload Too Large {"error":"request body exceeds the limit of ${LIMIT} bytes"}`;

/** What the server saw: the URLs handled, and of its one connection the socket, bytes read when the answer was written and when it closed. */
interface ServerSide {
  readonly handled: string[];
  socket?: Socket;
  answeredAt?: number;
  closed: Promise<number>;
}

async function startServer(linger: LingerBounds): Promise<{ server: Server; port: number; seen: ServerSide }> {
  const seen: ServerSide = { handled: [], closed: new Promise(() => undefined) };
  // The request timeout far past the test's own, so only the linger bounds can end a connection.
  const bounds = { ...CONNECTION_BOUNDS_DEFAULTS, requestTimeoutMs: 120_000, ...linger };
  const server = createBoundedServer(bounds, '', (request: IncomingMessage, response) => {
    seen.handled.push(request.url ?? '');
    response.on('finish', () => (seen.answeredAt = request.socket.bytesRead));
    readBody(request, LIMIT).then(
      () => response.end('read'),
      (failure: unknown) => {
        const { status, message } = failureAnswer(failure, () => false, () => 'internal error');
        answerFailure(request, response, status, message, bounds, (answerStatus, body) => {
          response.writeHead(answerStatus, { 'content-type': 'application/json' });
          response.end(body);
        });
      },
    );
  });
  server.on('connection', (socket: Socket) => {
    seen.socket = socket;
    seen.closed = new Promise((resolve) => socket.once('close', () => resolve(socket.bytesRead)));
  });
  const { port } = await listen(server, 0, '127.0.0.1');
  return { server, port, seen };
}

/** Resolves true once the server has read bytes sent after its answer, false if its socket is destroyed first. */
async function readsAfterTheAnswer(seen: ServerSide): Promise<boolean> {
  while (!seen.socket!.destroyed) {
    if (seen.answeredAt !== undefined && seen.socket!.bytesRead > seen.answeredAt) return true;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return false;
}

/**
 * A client that starts a chunked POST and never finishes it: `chunk` bytes at a time, as fast as the
 * socket takes them or every `everyMs`. Resolves `answered` with the first response's status line
 * and body, and `closed` with everything it received, once the server closes the connection.
 */
function endlessSender(port: number, chunk: number, everyMs?: number): { answered: Promise<string>; closed: Promise<string> } {
  // Half open: it goes on sending after the server's FIN, where a well-behaved client stops.
  const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  const piece = `${chunk.toString(16)}\r\n${'x'.repeat(chunk)}\r\n`;
  let received = '';
  let open = true;
  socket.on('error', () => undefined);
  socket.write('POST /endless HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n');
  const send = (): void => {
    while (open && socket.write(piece) && everyMs === undefined);
    if (open && everyMs !== undefined) setTimeout(send, everyMs);
  };
  socket.on('drain', () => everyMs === undefined && send());
  send();
  const answered = new Promise<string>((resolve) => {
    socket.on('data', (data: Buffer) => {
      received += data.toString();
      const error = /\{"error":.*?\}/.exec(received);
      if (error) resolve(`${received.slice(0, received.indexOf('\r\n'))} ${error[0]}`);
    });
  });
  const closed = new Promise<string>((resolve) =>
    socket.once('close', () => {
      open = false;
      resolve(received);
    }),
  );
  return { answered, closed };
}

describe('a refused body is read and thrown away within its bounds', () => {
  it('cuts off an endless fast sender once what it sent after its 413 passes maxLingerBytes', async () => {
    const { server, port, seen } = await startServer({ lingerTimeoutMs: 60_000, maxLingerBytes: MIB });
    try {
      const sender = endlessSender(port, 64 * 1024);
      const answer = await sender.answered;
      const readAfterTheAnswer = (await seen.closed) - seen.answeredAt!;
      await sender.closed;
      // Reads come 64 KiB at a time: the cut comes within one of the bound.
      expect({ answer, mibReadAfterTheAnswer: Math.round(readAfterTheAnswer / MIB) }).toEqual({ answer: ANSWER, mibReadAfterTheAnswer: 1 });
    } finally {
      await closeBoundedServer(server);
    }
  });

  it('cuts off an endless slow sender at lingerTimeoutMs, having read what it sent until then', async () => {
    const { server, port, seen } = await startServer({ lingerTimeoutMs: 500, maxLingerBytes: 64 * MIB });
    try {
      const sender = endlessSender(port, 100, 20);
      const answer = await sender.answered;
      const lingered = await readsAfterTheAnswer(seen);
      // The sender never stops by itself and the byte bound is out of its reach: the deadline closes it.
      const received = await sender.closed;
      expect({ answer, lingered, answersReceived: received.split('HTTP/1.1').length - 1 }).toEqual({ answer: ANSWER, lingered: true, answersReceived: 1 });
    } finally {
      await closeBoundedServer(server);
    }
  });

  it('does not hold up close() while a socket lingers', async () => {
    const { server, port, seen } = await startServer({ lingerTimeoutMs: 60_000, maxLingerBytes: 64 * MIB });
    const sender = endlessSender(port, 100, 10);
    const answer = await sender.answered;
    const lingered = await readsAfterTheAnswer(seen);
    await closeBoundedServer(server);
    await sender.closed;
    expect({ answer, lingered, destroyed: seen.socket!.destroyed }).toEqual({ answer: ANSWER, lingered: true, destroyed: true });
  });

  it('does not run a request pipelined after the refused body', async () => {
    const { server, port, seen } = await startServer({ lingerTimeoutMs: 60_000, maxLingerBytes: 64 * MIB });
    try {
      const socket = connect(port, '127.0.0.1');
      let received = '';
      socket.on('data', (data: Buffer) => (received += data.toString()));
      const body = 'x'.repeat(LIMIT + 1000);
      socket.write(`POST /refused HTTP/1.1\r\nHost: localhost\r\nContent-Length: ${body.length}\r\n\r\n${body}GET /after HTTP/1.1\r\nHost: localhost\r\n\r\n`);
      await new Promise((resolve) => socket.once('close', resolve));
      expect({ handled: seen.handled, answers: received.split('HTTP/1.1').length - 1, status: received.slice(0, 12) }).toEqual({ handled: ['/refused'], answers: 1, status: 'HTTP/1.1 413' });
    } finally {
      await closeBoundedServer(server);
    }
  });
});
