// Delivers runs for real: waits for Not-Before/Delay, honours flow control, POSTs (or the asked
// method) the body unchanged with the forwarded and signed headers, retries failed attempts (non-2xx
// or timeout) after the Retry-Delay or backoff, and calls the failure callback when retries run out.
import { randomUUID } from 'node:crypto';
import { FlowControl } from './flow-control';
import { exponentialBackoff } from './retry-delay';
import type { Run } from './runs';
import { signDelivery } from './signing';
import type { RunRequest } from './trigger-request';

export interface DeliveryOptions {
  readonly currentSigningKey: string;
  /** Multiplies every wait (delays, retry delays): 0.001 turns seconds into milliseconds. */
  readonly timeScale: number;
  readonly deliveryTimeoutMs: number;
}

interface Response {
  readonly status?: number;
  readonly headers: Record<string, string[]>;
  readonly body: Buffer;
  readonly error?: string;
}

/** A failed answer's `Retry-After` (seconds, as the platform reads it) sets the next attempt's wait. */
function retryAfterMs(response: Response): number | undefined {
  const text = response.headers['retry-after']?.[0]?.trim();
  return text !== undefined && /^\d+$/.test(text) ? Math.min(86_400, Number(text)) * 1000 : undefined;
}

export class DeliveryService {
  private readonly flowControl = new FlowControl();
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Aborts calls still in flight when the server closes, so close() never waits for a slow receiver. */
  private readonly closing = new AbortController();
  private closed = false;

  constructor(private readonly options: DeliveryOptions) {}

  start(run: Run, request: RunRequest): void {
    void this.deliver(run, request).catch(() => undefined);
  }

  close(): void {
    this.closed = true;
    this.closing.abort();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  /** After close() no new timer starts: the loops waiting on it see `closed` and stop. */
  private wait(ms: number): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, Math.max(0, ms));
      this.timers.add(timer);
    });
  }

  /** Flow control re-checks its queue after this; once closed it must stay asleep, not spin. */
  private flowWait(ms: number): Promise<void> {
    return this.closed ? new Promise<void>(() => undefined) : this.wait(ms);
  }

  private async deliver(run: Run, request: RunRequest): Promise<void> {
    await this.wait(request.notBefore - Date.now());
    let last: Response | undefined;
    for (let retried = 0; retried <= request.retries && !this.closed; retried++) {
      run.state = 'delivering';
      run.nextAttemptAt = undefined;
      last = await this.attempt(run, request, retried);
      if (last.status !== undefined && last.status >= 200 && last.status < 300) {
        run.state = 'succeeded';
        return;
      }
      const nonRetryable = last.status === 489 && last.headers['upstash-nonretryable-error']?.[0] === 'true';
      if (nonRetryable || retried === request.retries) break;
      run.state = 'retrying';
      const delay = (retryAfterMs(last) ?? (request.retryDelay ?? exponentialBackoff)(retried)) * this.options.timeScale;
      run.nextAttemptAt = Date.now() + delay;
      await this.wait(delay);
    }
    if (this.closed) return;
    run.state = 'failed';
    if (request.failureCallback && last) await this.callFailureCallback(run, request, last);
  }

  private async attempt(run: Run, request: RunRequest, retried: number): Promise<Response> {
    const release = request.flowControl
      ? await this.flowControl.acquire(request.flowControl.key, request.flowControl.limits, Date.now, (ms) => this.flowWait(ms))
      : undefined;
    const record = { retried, startedAt: Date.now() } as Run['attempts'][number];
    run.attempts.push(record);
    try {
      const headers: Record<string, string> = {
        ...request.forwardHeaders,
        'Upstash-Workflow-RunId': run.workflowRunId,
        'Upstash-Message-Id': run.messageId,
        'Upstash-Retried': String(retried),
        'User-Agent': 'Upstash-QStash',
        'Upstash-Signature': await signDelivery(request.destination, request.body, this.options.currentSigningKey),
      };
      if (request.contentType) headers['Content-Type'] = request.contentType;
      if (run.labels.length > 0) headers['Upstash-Label'] = run.labels.join(',');
      const response = await this.call(request.destination, request.method, headers, request.body);
      record.status = response.status;
      record.error = response.error;
      return response;
    } finally {
      release?.();
    }
  }

  private async call(url: string, method: string, headers: Record<string, string>, body: Buffer): Promise<Response> {
    try {
      const response = await fetch(url, {
        method,
        headers,
        body: method === 'GET' || method === 'HEAD' ? undefined : body,
        signal: AbortSignal.any([AbortSignal.timeout(this.options.deliveryTimeoutMs), this.closing.signal]),
      });
      const responseHeaders: Record<string, string[]> = {};
      response.headers.forEach((value, name) => (responseHeaders[name.toLowerCase()] = [value]));
      return { status: response.status, headers: responseHeaders, body: Buffer.from(await response.arrayBuffer()) };
    } catch (failure) {
      return { headers: {}, body: Buffer.alloc(0), error: (failure as Error).name === 'TimeoutError' ? `no answer within ${this.options.deliveryTimeoutMs} ms` : (failure as Error).message };
    }
  }

  /** The platform's failure callback message: what the last attempt answered, and what was sent. */
  private async callFailureCallback(run: Run, request: RunRequest, last: Response): Promise<void> {
    const callback = request.failureCallback!;
    run.failureCallback = { url: callback.url, state: 'pending' };
    const payload = Buffer.from(
      JSON.stringify({
        status: last.status ?? 0,
        header: last.headers,
        body: last.body.toString('base64'),
        retried: run.attempts.length - 1,
        maxRetries: request.retries,
        sourceMessageId: run.messageId,
        url: request.destination,
        method: request.method,
        sourceHeader: Object.fromEntries(Object.entries(request.forwardHeaders).map(([name, value]) => [name, [value]])),
        sourceBody: request.body.toString('base64'),
        workflowRunId: run.workflowRunId,
        workflowCreatedAt: run.workflowCreatedAt,
      }),
    );
    for (let retried = 0; retried <= request.retries && !this.closed; retried++) {
      const headers = {
        ...callback.headers,
        'Content-Type': 'application/json',
        'Upstash-Workflow-RunId': run.workflowRunId,
        'Upstash-Message-Id': `msg_${randomUUID()}`,
        'Upstash-Retried': String(retried),
        'Upstash-Failure-Callback': 'true',
        'Upstash-Signature': await signDelivery(callback.url, payload, this.options.currentSigningKey),
      };
      const response = await this.call(callback.url, 'POST', headers, payload);
      run.failureCallback.status = response.status;
      if (response.status !== undefined && response.status >= 200 && response.status < 300) {
        run.failureCallback.state = 'delivered';
        return;
      }
      if (retried < request.retries) await this.wait((request.retryDelay ?? exponentialBackoff)(retried) * this.options.timeScale);
    }
    run.failureCallback.state = 'failed';
  }
}
