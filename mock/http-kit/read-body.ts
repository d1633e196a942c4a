// Reads a request body with a limit: a declared Content-Length past it is refused before a byte is
// read, and a body that turns out longer (chunked, or a lying length) is cut off as soon as it passes.
import type { IncomingMessage } from 'node:http';
import { HttpError } from './http-error';

/**
 * Calls `onBody` with the whole body, or `onFailure` once (413 past the limit, or the request's own
 * error), never both. Callbacks rather than a promise for the key-value server, whose every POST
 * reads a body: one promise and one await less per request. `errorPrefix` starts the 413 text
 * (`ERR ` where the server speaks Redis).
 */
export function readBodyThen(request: IncomingMessage, limit: number, errorPrefix: string, onBody: (body: Buffer) => void, onFailure: (failure: unknown) => void): void {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > limit) return onFailure(new HttpError(413, `${errorPrefix}request body of ${declared} bytes exceeds the limit of ${limit} bytes`));
  const chunks: Buffer[] = [];
  let size = 0;
  let settled = false;
  request.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) {
      request.removeAllListeners('data');
      settled = true;
      onFailure(new HttpError(413, `${errorPrefix}request body exceeds the limit of ${limit} bytes`));
      return;
    }
    chunks.push(chunk);
  });
  request.on('end', () => {
    if (settled) return;
    settled = true;
    onBody(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
  });
  request.on('error', (failure) => {
    if (settled) return;
    settled = true;
    onFailure(failure);
  });
}

/** readBodyThen as a promise. */
export function readBody(request: IncomingMessage, limit: number, errorPrefix = ''): Promise<Buffer> {
  return new Promise((resolve, reject) => readBodyThen(request, limit, errorPrefix, resolve, reject));
}
