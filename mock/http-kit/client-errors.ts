// Answers for requests Node's HTTP parser refuses before any handler sees them (a NUL byte in the
// request line, `Content-Length: abc`, Content-Length with Transfer-Encoding, a URL or headers past
// the size limit, headers or a body that do not arrive in time): a status and a JSON `{error}` as
// every other failure gets (RFC 9112 wants a 400 rather than silence), then the connection closes.
import type { Duplex } from 'node:stream';
import { errorBody } from './error-funnel';

interface ParserFailure extends Error {
  readonly code?: string;
  /** The bytes being parsed when the parser gave up. */
  readonly rawPacket?: Buffer;
}

const REASONS: Readonly<Record<number, string>> = { 400: 'Bad Request', 408: 'Request Timeout', 414: 'URI Too Long', 431: 'Request Header Fields Too Large' };

/** The status and `{error}` text for a parser failure. */
export function clientErrorAnswer(failure: ParserFailure): { readonly status: number; readonly message: string } {
  switch (failure.code) {
    case 'HPE_HEADER_OVERFLOW':
      // No line end among the bytes parsed: the request line itself is what overflowed.
      return failure.rawPacket && !failure.rawPacket.includes('\r\n')
        ? { status: 414, message: 'the request URL is longer than the server accepts' }
        : { status: 431, message: 'the request headers are larger than the server accepts' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, message: 'the request did not arrive in time' };
    default:
      return { status: 400, message: `the request is not valid HTTP/1.1 (${failure.code ?? failure.message})` };
  }
}

/** Node's https server hands its TLS failures (ERR_TLS_HANDSHAKE_TIMEOUT, OpenSSL's ERR_SSL_*) to 'clientError' too. */
const isTlsFailure = (failure: ParserFailure): boolean => failure.code !== undefined && (failure.code.startsWith('ERR_TLS_') || failure.code.startsWith('ERR_SSL_'));

/** The server's 'clientError' listener; `errorPrefix` starts each text (`ERR ` where the server speaks Redis). */
export function clientErrorListener(errorPrefix: string): (failure: ParserFailure, socket: Duplex) => void {
  return (failure, socket) => {
    // A reset connection, or one whose response has begun, can take no answer; nor can an https
    // connection whose TLS handshake failed or timed out (an answer written there would wait for a
    // handshake that never ends, and keep the socket open).
    if (failure.code === 'ECONNRESET' || isTlsFailure(failure) || !socket.writable || (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    const { status, message } = clientErrorAnswer(failure);
    const body = errorBody(`${errorPrefix}${message}`);
    socket.end(`HTTP/1.1 ${status} ${REASONS[status]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  };
}
