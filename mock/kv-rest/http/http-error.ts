// An HTTP-level failure: a status and the `{error}` text the client receives.
import { EngineRefusal } from '../engine';

export class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

export const UNAUTHORIZED_TEXT = 'WRONGPASS invalid or missing auth token';

/**
 * The answer when the engine cannot serve a request (store down, timeout): a 400, like any failed
 * command; an engine's refusal (NOPERM) keeps its own text.
 */
export function engineFailure(failure: unknown): HttpError {
  if (failure instanceof EngineRefusal) return new HttpError(400, failure.message);
  return new HttpError(400, `ERR store unavailable: ${failure instanceof Error ? failure.message : String(failure)}`);
}
