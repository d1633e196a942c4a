// Small request and response helpers of the workflow routes: headers as one lower-cased string
// each, a JSON answer, and a path segment decoded with a 400 for a malformed escape.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from '../http-kit/http-error';

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
