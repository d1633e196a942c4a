// Creates an HTTP server whose connections are bounded: how long a request's headers and the whole
// request may take (then 408), how many connections may be open, and how long and how much of a
// refused body is read after its 413 (lingering-close.ts); Node's defaults (60 s, 300 s, checked
// every 30 s, no connection cap) would let a slow or crowding client hold sockets for minutes.
// Given a TLS identity it serves https, in the same process and on the same handler (no terminator
// and no second socket in front of it), its TLS handshake bounded by the headers timeout.
import { createServer, type RequestListener, type Server, type ServerOptions } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { clientErrorListener } from './client-errors';
import { arrivedAfterClose, type LingerBounds } from './lingering-close';
import type { TlsIdentity } from './tls-identity';

/** A lingering socket stays open, so it counts against maxConnections, and its request against requestTimeoutMs. */
export interface ConnectionBounds extends LingerBounds {
  /** Longest wait for a request's headers; then 408 and the connection closes. */
  readonly headersTimeoutMs: number;
  /** Longest wait for a whole request, body included; then 408 and the connection closes. */
  readonly requestTimeoutMs: number;
  /** Open connections at most; connections past it are closed at once. */
  readonly maxConnections: number;
}

/**
 * The linger bounds: 64 MiB arrives over loopback in 0.3 to 0.6 s (measured on a loaded 2-core
 * machine), so a client that writes its whole body before it reads still sees the 413 up to 64 MiB
 * past the limit, and one that reads while it sends stops at the answer's FIN long before either.
 */
export const CONNECTION_BOUNDS_DEFAULTS: ConnectionBounds = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  maxConnections: 10_000,
  lingerTimeoutMs: 5000,
  maxLingerBytes: 64 * 1024 * 1024,
};

/** How often Node checks the header and request timeouts (its default, 30 s, would let them run that much late). */
const TIMEOUT_CHECK_INTERVAL_MS = 1000;

/**
 * `errorPrefix` starts the text of the answers Node's parser failures get (`ERR ` where the server
 * speaks Redis); `tls`: serve https with this certificate and key (plain HTTP without it).
 */
export function createBoundedServer(bounds: ConnectionBounds, errorPrefix: string, handler: RequestListener, tls?: TlsIdentity): Server {
  const options: ServerOptions = {
    keepAliveTimeout: 65_000,
    headersTimeout: bounds.headersTimeoutMs,
    // Node requires the request timeout to be at least the headers timeout.
    requestTimeout: Math.max(bounds.requestTimeoutMs, bounds.headersTimeoutMs),
    connectionsCheckingInterval: Math.min(TIMEOUT_CHECK_INTERVAL_MS, bounds.headersTimeoutMs),
  };
  const listener: RequestListener = (request, response) => {
    // Left unanswered, its body thrown away: the connection closes after the answer before it.
    if (arrivedAfterClose(request)) return void request.resume();
    handler(request, response);
  };
  // A connection is the HTTP parser's (and so under headersTimeout) only once its handshake is done:
  // before that only handshakeTimeout (Node's default 120 s) would bound a client that never finishes it.
  const server = tls ? createHttpsServer({ ...options, ...tls, handshakeTimeout: bounds.headersTimeoutMs }, listener) : createServer(options, listener);
  server.maxConnections = bounds.maxConnections;
  server.on('clientError', clientErrorListener(errorPrefix));
  return server;
}

/**
 * Stops listening and destroys every connection, lingering ones included (they still carry Node's
 * HTTP parser, so closeAllConnections reaches them); resolves once all are closed.
 */
export function closeBoundedServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
