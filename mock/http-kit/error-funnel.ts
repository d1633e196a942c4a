// Where every failure of a request ends: one JSON `{error}` answer with its status. A response
// already under way can only be cut off; a refused body (413) is drained, not kept, and the
// connection closed lingering, so the client sees the answer instead of a reset while still sending.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from './http-error';
import { lingerAfterAnswer, type LingerBounds } from './lingering-close';

export function errorBody(message: string): string {
  return `{"error":${JSON.stringify(message)}}`;
}

/** The status and text a failure is answered with; `known` failures other than HttpError are the caller's (400). */
export function failureAnswer(failure: unknown, isKnown: (failure: unknown) => boolean, internalMessage: (failure: unknown) => string): { readonly status: number; readonly message: string } {
  if (failure instanceof HttpError) return { status: failure.status, message: failure.message };
  if (isKnown(failure)) return { status: 400, message: (failure as Error).message };
  return { status: 500, message: internalMessage(failure) };
}

/** `send` writes the answer with whatever headers the server adds to every response; `linger` bounds what is read of a refused body after it. */
export function answerFailure(request: IncomingMessage, response: ServerResponse, status: number, message: string, linger: LingerBounds, send: (status: number, body: string) => void): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  if (status === 413) {
    response.setHeader('connection', 'close');
    lingerAfterAnswer(request, linger);
    request.resume();
  }
  send(status, errorBody(message));
}
