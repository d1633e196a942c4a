// An HTTP-level failure: a status and the `{error}` text the client receives.
export class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

export const UNAUTHORIZED_TEXT = 'WRONGPASS invalid or missing auth token';

/** The answer when the engine cannot serve a request (store down, timeout): a 400, like any failed command. */
export function storeUnavailable(failure: unknown): HttpError {
  return new HttpError(400, `ERR store unavailable: ${failure instanceof Error ? failure.message : String(failure)}`);
}
