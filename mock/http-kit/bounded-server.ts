// Creates an HTTP server whose connections are bounded: how long a request's headers and the whole
// request may take (then 408), and how many connections may be open; Node's defaults (60 s, 300 s,
// checked every 30 s, no connection cap) would let a slow or crowding client hold sockets for minutes.
import { createServer, type RequestListener, type Server } from 'node:http';
import { clientErrorListener } from './client-errors';

export interface ConnectionBounds {
  /** Longest wait for a request's headers; then 408 and the connection closes. */
  readonly headersTimeoutMs: number;
  /** Longest wait for a whole request, body included; then 408 and the connection closes. */
  readonly requestTimeoutMs: number;
  /** Open connections at most; connections past it are closed at once. */
  readonly maxConnections: number;
}

export const CONNECTION_BOUNDS_DEFAULTS: ConnectionBounds = { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, maxConnections: 10_000 };

/** How often Node checks the header and request timeouts (its default, 30 s, would let them run that much late). */
const TIMEOUT_CHECK_INTERVAL_MS = 1000;

/** `errorPrefix` starts the text of the answers Node's parser failures get (`ERR ` where the server speaks Redis). */
export function createBoundedServer(bounds: ConnectionBounds, errorPrefix: string, handler: RequestListener): Server {
  const server = createServer(
    {
      keepAliveTimeout: 65_000,
      headersTimeout: bounds.headersTimeoutMs,
      // Node requires the request timeout to be at least the headers timeout.
      requestTimeout: Math.max(bounds.requestTimeoutMs, bounds.headersTimeoutMs),
      connectionsCheckingInterval: Math.min(TIMEOUT_CHECK_INTERVAL_MS, bounds.headersTimeoutMs),
    },
    handler,
  );
  server.maxConnections = bounds.maxConnections;
  server.on('clientError', clientErrorListener(errorPrefix));
  return server;
}
