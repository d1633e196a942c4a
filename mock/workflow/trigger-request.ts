// Reads a trigger (POST /v2/trigger/<url>, or one entry of a batch) into a validated run request:
// every header of seed Area A, with the platform's prefix (`Upstash` or `Svc`), and errors that
// say what is wrong.
import { parseCombinedDuration } from './durations';
import { type FlowLimits, parseFlowControlValue } from './flow-control';
import { parseRetryDelay, RetryDelayError, type RetryDelay } from './retry-delay';

export interface RunRequest {
  readonly destination: string;
  readonly method: string;
  readonly body: Buffer;
  readonly contentType?: string;
  readonly runId?: string;
  /** Headers sent to the destination, prefix removed. */
  readonly forwardHeaders: Record<string, string>;
  readonly retries: number;
  /** Absolute time (ms) before which nothing is delivered. */
  readonly notBefore: number;
  readonly labels: string[];
  readonly flowControl?: { readonly key: string; readonly limits: FlowLimits };
  readonly failureCallback?: { readonly url: string; readonly headers: Record<string, string> };
  readonly retryDelay?: RetryDelay;
  readonly retryDelayExpression?: string;
}

export class TriggerError extends Error {}

const MAX_RETRIES = 100;

function httpUrl(text: string, what: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TriggerError(`invalid ${what}: "${text}" is not a URL, add http:// or https://`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TriggerError(`invalid ${what}: endpoint has invalid scheme, add http:// or https://`);
  return text;
}

/** `headers` with lower-case names; `timeScale` shrinks delays for tests (1 = real time). */
export function readRunRequest(destination: string, headers: Readonly<Record<string, string>>, body: Buffer, prefix: string, now: number, timeScale: number): RunRequest {
  const p = `${prefix.toLowerCase()}-`;
  const header = (name: string): string | undefined => headers[`${p}${name}`];
  const forwarded = (start: string): Record<string, string> =>
    Object.fromEntries(Object.entries(headers).filter(([name]) => name.startsWith(start) && name.length > start.length).map(([name, value]) => [name.slice(start.length), value]));

  const retriesText = header('retries');
  if (retriesText !== undefined && (!/^\d+$/.test(retriesText.trim()) || Number(retriesText) > MAX_RETRIES)) {
    throw new TriggerError(`${prefix}-Retries must be a whole number from 0 to ${MAX_RETRIES}, got "${retriesText}"`);
  }
  const notBeforeText = header('not-before');
  const delayText = header('delay');
  let notBefore = now;
  if (notBeforeText !== undefined) {
    if (!/^\d+$/.test(notBeforeText.trim())) throw new TriggerError(`${prefix}-Not-Before must be a unix time in seconds, got "${notBeforeText}"`);
    notBefore = now + (Number(notBeforeText) * 1000 - now) * timeScale;
  } else if (delayText !== undefined) {
    const delay = parseCombinedDuration(delayText);
    if (delay === undefined) throw new TriggerError(`${prefix}-Delay must be <number><unit> with unit s, m, h or d (combinable: 1d2h30m), got "${delayText}"`);
    notBefore = now + delay * timeScale;
  }
  const key = header('flow-control-key');
  const value = header('flow-control-value');
  let flowControl: RunRequest['flowControl'];
  if (key !== undefined || value !== undefined) {
    if (!key || !value) throw new TriggerError(`${prefix}-Flow-Control-Key and ${prefix}-Flow-Control-Value must be sent together`);
    const limits = parseFlowControlValue(value, parseCombinedDuration);
    if (typeof limits === 'string') throw new TriggerError(`${prefix}-Flow-Control-Value: ${limits}`);
    flowControl = { key, limits };
  }
  const callback = header('failure-callback');
  const retryDelayExpression = header('retry-delay');
  let retryDelay: RetryDelay | undefined;
  if (retryDelayExpression !== undefined) {
    try {
      retryDelay = parseRetryDelay(retryDelayExpression);
    } catch (failure) {
      if (failure instanceof RetryDelayError) throw new TriggerError(`${prefix}-Retry-Delay "${retryDelayExpression}": ${failure.message}`);
      throw failure;
    }
  }
  return {
    destination: httpUrl(destination, 'destination url'),
    method: (header('method') ?? 'POST').toUpperCase(),
    body,
    contentType: headers['content-type'],
    runId: header('workflow-runid'),
    forwardHeaders: forwarded(`${p}forward-`),
    retries: retriesText === undefined ? 3 : Number(retriesText),
    notBefore,
    labels: (header('label') ?? '').split(',').map((label) => label.trim()).filter(Boolean),
    flowControl,
    // An empty Failure-Callback header asks for the workflow URL itself, as @upstash/workflow does.
    failureCallback:
      callback === undefined
        ? undefined
        : { url: callback.trim() === '' ? httpUrl(destination, 'destination url') : httpUrl(callback, `${prefix}-Failure-Callback`), headers: forwarded(`${p}failure-callback-forward-`) },
    retryDelay,
    retryDelayExpression,
  };
}
