// The workflow server's HTTP plumbing: the typed error its routes throw, body reading with a
// limit, token comparison, and answers in JSON `{error}` even for requests Node's parser refuses
// itself (an oversized header block, a request line with bytes HTTP does not allow).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

export class HttpError extends Error {
  override name = 'HttpError';
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/** Compares digests so neither the time taken nor a length mismatch tells how much of a token was right. */
export function sameToken(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

export function readBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) reject(new HttpError(413, `request body exceeds ${limit} bytes`));
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

export function lowerCaseHeaders(headers: IncomingMessage['headers']): Record<string, string> {
  const lower: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) lower[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  return lower;
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** Decodes one path segment; a malformed percent-encoding is the caller's mistake (400), not ours. */
export function decodePathSegment(text: string, what: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new HttpError(400, `${what} is not a valid percent-encoded path segment`);
  }
}

/** For the server's `clientError` event: Node's own 400/431 answers carry no body otherwise. */
export function answerClientError(failure: NodeJS.ErrnoException, socket: Duplex): void {
  // A reset connection has no one to answer.
  if (failure.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
  const tooLarge = failure.code === 'HPE_HEADER_OVERFLOW';
  const body = JSON.stringify({ error: tooLarge ? 'the request headers are too large' : 'the request is not valid HTTP/1.1' });
  const status = tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request';
  socket.end(`HTTP/1.1 ${status}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}
