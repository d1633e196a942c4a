// Closes a connection whose request was refused while its body is still arriving (a 413) the way
// nginx's lingering_close and Apache's lingering close do: the answer is sent, the sending side shut
// (FIN), and the rest of the body read and thrown away until it ends, the client closes, or a bound
// in bytes or time is reached; only then is the socket destroyed. Node destroys a `Connection:
// close` socket as soon as the answer is written; the client's next bytes then meet a reset, which
// throws away the answer it had not read yet: ten clients in another process each sending 4 MiB
// against a 256 KiB limit got 2 413s and 8 EPIPEs, and @upstash/redis retries such a network error
// by sending the whole body again.
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

export interface LingerBounds {
  /** Longest a refused body is read and thrown away after the answer; then the connection is destroyed. */
  readonly lingerTimeoutMs: number;
  /** Most bytes of a refused body read and thrown away after the answer; past it the connection is destroyed. */
  readonly maxLingerBytes: number;
}

/** Sockets whose last answer is written or being written: whatever request follows on them is not run. */
const closing = new WeakSet<Socket>();

/**
 * Makes the close that follows `request`'s `Connection: close` answer a lingering one when the
 * request's body has not all arrived (with nothing more to come, Node's own close is the right one).
 * Call it, and resume the request, before the answer is ended: a request still paused when its
 * answer is written is dumped by Node, and its body no longer counted.
 */
export function lingerAfterAnswer(request: IncomingMessage, bounds: LingerBounds): void {
  closing.add(request.socket);
  if (request.complete) return;
  const socket = request.socket as Socket & { destroySoon(): void };
  // Node's HTTP server closes the socket of a `Connection: close` answer, once that answer is
  // written, with socket.destroySoon() (resOnFinish in lib/_http_server.js): the one call replaced.
  socket.destroySoon = () => discardRestOfBody(request, socket, bounds);
}

function discardRestOfBody(request: IncomingMessage, socket: Socket, { lingerTimeoutMs, maxLingerBytes }: LingerBounds): void {
  socket.end();
  // unref: a lingering socket never keeps the process alive; server.close() destroys it with the
  // other connections (closeAllConnections), which clears the timer.
  const deadline = setTimeout(() => socket.destroy(), lingerTimeoutMs).unref();
  socket.once('close', () => clearTimeout(deadline));
  // The body goes on through Node's parser into the request, unkept: the request is flowing and
  // these listeners hold nothing. Bytes are counted as read from the wire, chunk framing included.
  // A client that closes first ends the socket through the parser's error for the body cut short
  // (clientErrorListener destroys a socket that can take no answer).
  const readBefore = socket.bytesRead;
  request.on('data', () => {
    if (socket.bytesRead - readBefore > maxLingerBytes) socket.destroy();
  });
  // The whole body read: nothing more is expected, and with nothing unread the close sends no reset.
  if (request.readableEnded) destroyOnceWritten(socket);
  else request.once('end', () => destroyOnceWritten(socket));
}

function destroyOnceWritten(socket: Socket): void {
  if (socket.writableFinished) socket.destroy();
  else socket.once('finish', () => socket.destroy());
}

/**
 * Whether `request` came on a connection whose last answer is already decided (a client pipelining
 * past a refused body): RFC 9112 section 9.6, a server that answers with `close` must not process
 * any further request received on that connection.
 */
export function arrivedAfterClose(request: IncomingMessage): boolean {
  return closing.has(request.socket);
}
