// Reads a request body with a limit: a declared Content-Length past it is refused before a byte is
// read, and a body that turns out longer (chunked, or a lying length) is cut off as soon as it passes.
import type { IncomingMessage } from 'node:http';
import { HttpError } from './http-error';

/** `errorPrefix` starts the 413 text (`ERR ` where the server speaks Redis). */
export function readBody(request: IncomingMessage, limit: number, errorPrefix = ''): Promise<Buffer> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > limit) return Promise.reject(new HttpError(413, `${errorPrefix}request body of ${declared} bytes exceeds the limit of ${limit} bytes`));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        request.removeAllListeners('data');
        reject(new HttpError(413, `${errorPrefix}request body exceeds the limit of ${limit} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    request.on('error', reject);
  });
}
