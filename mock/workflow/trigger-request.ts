// Reads a trigger (POST /v2/trigger/<url>, or one entry of a batch) into a validated run request:
// every header of seed Area A, with the platform's prefix (`Upstash` or `Svc`), and errors that
// say what is wrong. Every wait is scaled here, once, by the server's time scale.
import { createHash } from 'node:crypto';
import { MAX_WAIT_MS, MAX_WAIT_TEXT, parseCombinedDuration } from './durations';
import { type FlowLimits, parseFlowControlValue } from './flow-control';
import { DELIVERY_METHODS, isHeaderValue, whyNotForwardable } from './header-rules';
import { parseRetryDelay, RetryDelayError, type RetryDelay } from './retry-delay';

export interface RunRequest {
  readonly destination: string;
  readonly method: string;
  readonly body: Buffer;
  readonly contentType?: string;
  readonly runId?: string;
  /** Upstash-Deduplication-Id, or a digest of the content with Upstash-Content-Based-Deduplication. */
  readonly deduplicationId?: string;
  /** Headers sent to the destination: lower-case names, prefix removed. */
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

export class TriggerError extends Error {
  override name = 'TriggerError';
}

const MAX_RETRIES = 100;
const MAX_ID_LENGTH = 256;

function httpUrl(text: string, what: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TriggerError(`invalid ${what}: "${text.slice(0, 200)}" is not a URL, add http:// or https://`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TriggerError(`invalid ${what}: endpoint has invalid scheme, add http:// or https://`);
  // fetch refuses credentials in a URL, so such a run could only ever fail.
  if (url.username !== '' || url.password !== '') throw new TriggerError(`invalid ${what}: credentials in the URL are not allowed, forward an Authorization header instead`);
  return text;
}

function identifier(text: string | undefined, what: string): string | undefined {
  if (text === undefined) return undefined;
  if (text.length === 0 || text.length > MAX_ID_LENGTH || !/^[\x21-\x7e]+$/.test(text)) throw new TriggerError(`${what} must be 1 to ${MAX_ID_LENGTH} visible ASCII characters`);
  return text;
}

/** `headers` with lower-case names; `timeScale` shrinks every wait for tests (1 = real time). */
export function readRunRequest(destination: string, headers: Readonly<Record<string, string>>, body: Buffer, prefix: string, now: number, timeScale: number): RunRequest {
  const p = `${prefix.toLowerCase()}-`;
  const header = (name: string): string | undefined => headers[`${p}${name}`];
  const forwarded = (start: string, what: string): Record<string, string> => {
    const chosen: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      if (!name.startsWith(start) || name.length === start.length) continue;
      const target = name.slice(start.length);
      const refusal = whyNotForwardable(target);
      if (refusal) throw new TriggerError(`${what}${target}: "${target}" ${refusal}`);
      if (!isHeaderValue(value)) throw new TriggerError(`${what}${target}: the value has characters a header cannot carry`);
      chosen[target] = value;
    }
    return chosen;
  };

  const retriesText = header('retries');
  if (retriesText !== undefined && (!/^\d{1,3}$/.test(retriesText.trim()) || Number(retriesText) > MAX_RETRIES)) {
    throw new TriggerError(`${prefix}-Retries must be a whole number from 0 to ${MAX_RETRIES}, got "${retriesText}"`);
  }
  const notBeforeText = header('not-before');
  const delayText = header('delay');
  let wait = 0;
  if (notBeforeText !== undefined) {
    if (!/^\d{1,15}$/.test(notBeforeText.trim())) throw new TriggerError(`${prefix}-Not-Before must be a unix time in seconds, got "${notBeforeText}"`);
    wait = Number(notBeforeText) * 1000 - now;
    if (wait > MAX_WAIT_MS) throw new TriggerError(`${prefix}-Not-Before is more than ${MAX_WAIT_TEXT} ahead, the longest wait this server holds`);
  } else if (delayText !== undefined) {
    const delay = parseCombinedDuration(delayText);
    if (delay === undefined) throw new TriggerError(`${prefix}-Delay must be <number><unit> with unit s, m, h or d (combinable: 1d2h30m), got "${delayText}"`);
    if (delay > MAX_WAIT_MS) throw new TriggerError(`${prefix}-Delay must be at most ${MAX_WAIT_TEXT}, got "${delayText}"`);
    wait = delay;
  }
  const key = header('flow-control-key');
  const value = header('flow-control-value');
  let flowControl: RunRequest['flowControl'];
  if (key !== undefined || value !== undefined) {
    if (!key || !value) throw new TriggerError(`${prefix}-Flow-Control-Key and ${prefix}-Flow-Control-Value must be sent together`);
    const limits = parseFlowControlValue(value, parseCombinedDuration);
    if (typeof limits === 'string') throw new TriggerError(`${prefix}-Flow-Control-Value: ${limits}`);
    if (limits.period > MAX_WAIT_MS) throw new TriggerError(`${prefix}-Flow-Control-Value: period must be at most ${MAX_WAIT_TEXT}`);
    flowControl = { key: identifier(key, `${prefix}-Flow-Control-Key`)!, limits: { ...limits, period: limits.period * timeScale } };
  }
  const method = (header('method') ?? 'POST').trim().toUpperCase();
  if (!DELIVERY_METHODS.has(method)) throw new TriggerError(`${prefix}-Method must be one of ${[...DELIVERY_METHODS].join(', ')}, got "${method.slice(0, 40)}"`);
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
  const url = httpUrl(destination, 'destination url');
  const forwardHeaders = forwarded(`${p}forward-`, `${prefix}-Forward-`);
  const contentBased = header('content-based-deduplication')?.trim().toLowerCase() === 'true';
  return {
    destination: url,
    method,
    body,
    contentType: headers['content-type'],
    runId: identifier(header('workflow-runid'), `${prefix}-Workflow-RunId`),
    deduplicationId: identifier(header('deduplication-id'), `${prefix}-Deduplication-Id`) ?? (contentBased ? contentDigest(url, method, forwardHeaders, body) : undefined),
    forwardHeaders,
    retries: retriesText === undefined ? 3 : Number(retriesText),
    notBefore: now + wait * timeScale,
    labels: (header('label') ?? '').split(',').map((label) => label.trim()).filter(Boolean),
    flowControl,
    // An empty Failure-Callback header asks for the workflow URL itself, as @upstash/workflow does.
    failureCallback:
      callback === undefined
        ? undefined
        : { url: callback.trim() === '' ? url : httpUrl(callback, `${prefix}-Failure-Callback`), headers: forwarded(`${p}failure-callback-forward-`, `${prefix}-Failure-Callback-Forward-`) },
    retryDelay,
    retryDelayExpression,
  };
}

/** Content-based deduplication: the same destination, method, forwarded headers and body are one message. */
function contentDigest(destination: string, method: string, forwardHeaders: Record<string, string>, body: Buffer): string {
  const hash = createHash('sha256').update(JSON.stringify([destination, method, Object.entries(forwardHeaders).sort(([a], [b]) => (a < b ? -1 : 1))])).update('\n').update(body);
  return `content_${hash.digest('hex')}`;
}
