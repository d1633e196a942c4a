// The key-value server's HTTP failures in Redis's words: the refused-token text, and how an
// engine's failure is answered.
import { HttpError } from '../../http-kit/http-error';
import { EngineRefusal } from '../engine';

export const UNAUTHORIZED_TEXT = 'WRONGPASS invalid or missing auth token';

/**
 * The answer when the engine cannot serve a request (store down, timeout): a 400, like any failed
 * command; an engine's refusal (NOPERM) keeps its own text.
 */
export function engineFailure(failure: unknown): HttpError {
  if (failure instanceof EngineRefusal) return new HttpError(400, failure.message);
  return new HttpError(400, `ERR store unavailable: ${failure instanceof Error ? failure.message : String(failure)}`);
}
