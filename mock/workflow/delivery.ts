// Delivers runs for real: waits for Not-Before/Delay, honours flow control and the cap on calls at
// once, sends the body unchanged with the forwarded and signed headers, retries failed attempts
// (non-2xx, a redirect, or a timeout) after Retry-After, the Retry-Delay or the backoff, and calls
// the failure callback when retries run out.
//
// Redirects are never followed: a 3xx is a failed attempt with its status, as on the platform, so
// the signature and forwarded headers never reach another origin and a POST never becomes a GET.
// Of each answer only the first `keptAnswerBytes` are kept (for the failure callback); the rest is
// read, counted and dropped.
//
// The delivery timeout covers the whole exchange, up to the answer's last body byte: a receiver
// that sent its headers at once and then one byte every 50 ms used to hold an attempt for as long as
// it dripped, and the 200 counted (issue 25, finding 7). An answer cut short, by the timeout or a
// dropped connection, is a failed attempt with no status; what came of its body is kept as above.
// The timeout is judged as the answer is read (answer-deadline.ts), so an answer that came in time
// while the event loop was held past the deadline is not aborted and delivered again.
import { randomUUID } from 'node:crypto';
import { AnswerDeadline } from './answer-deadline';
import { DeliverySlots } from './delivery-slots';
import { FlowControl, type RateSlots } from './flow-control';
import { LongTimers } from './long-timers';
import { retryAfterMs } from './retry-after';
import { exponentialBackoff } from './retry-delay';
import type { Run } from './runs';
import { signDelivery } from './signing';
import type { RunRequest } from './trigger-request';

export interface DeliveryOptions {
  readonly currentSigningKey: string;
  /** Multiplies every retry wait (the trigger's own waits are scaled when it is read). */
  readonly timeScale: number;
  readonly deliveryTimeoutMs: number;
  readonly maxConcurrentDeliveries: number;
  readonly keptAnswerBytes: number;
  /** Told after each step of a run (an attempt answered, a state changed), e.g. to save the state. */
  readonly onChange?: () => void;
}

/** What a run's delivery carries between attempts, and across a restart with a state file. */
export interface DeliveryProgress {
  lastAnswer?: Answer;
}

export interface Answer {
  readonly status?: number;
  readonly headers: Record<string, string[]>;
  /** The first keptAnswerBytes of the body. */
  readonly body: Buffer;
  readonly bodyBytes: number;
  readonly error?: string;
}

const MAX_ERROR_LENGTH = 200;

export class DeliveryService {
  private readonly flowControl = new FlowControl();
  private readonly timers = new LongTimers();
  private readonly slots: DeliverySlots;
  /** Aborts calls still in flight when the server closes, so close() never waits for a slow receiver. */
  private readonly closing = new AbortController();
  private closed = false;

  constructor(private readonly options: DeliveryOptions) {
    this.slots = new DeliverySlots(options.maxConcurrentDeliveries);
  }

  /**
   * Resolves once nothing more will happen to the run (delivered, or failed and its callback over).
   * Picks up where `run` stands, so a run restored from a state file goes on from its next attempt;
   * `progress` holds the last answer for the failure callback, and onChange hears every step.
   */
  async deliver(run: Run, request: RunRequest, progress: DeliveryProgress = {}): Promise<void> {
    if (run.state !== 'failed') {
      await this.timers.wait((run.nextAttemptAt ?? request.notBefore) - Date.now());
      if (await this.attemptUntilDone(run, request, progress)) return;
    }
    if (this.closed) return;
    run.state = 'failed';
    this.options.onChange?.();
    if (request.failureCallback && progress.lastAnswer) await this.callFailureCallback(run, request, progress.lastAnswer);
  }

  /** True when an attempt succeeded; false when retries ran out or a 489 stopped them. */
  private async attemptUntilDone(run: Run, request: RunRequest, progress: DeliveryProgress): Promise<boolean> {
    for (let retried = run.attempts.length; retried <= request.retries && !this.closed; retried++) {
      run.state = 'delivering';
      run.nextAttemptAt = undefined;
      const last = await this.attempt(run, request, retried);
      progress.lastAnswer = last;
      if (isSuccess(last)) {
        run.state = 'succeeded';
        this.options.onChange?.();
        return true;
      }
      const nonRetryable = last.status === 489 && last.headers['upstash-nonretryable-error']?.[0] === 'true';
      if (nonRetryable || retried === request.retries) break;
      run.state = 'retrying';
      const delay = (retryAfterMs(last.headers, Date.now()) ?? (request.retryDelay ?? exponentialBackoff)(retried)) * this.options.timeScale;
      run.nextAttemptAt = Date.now() + delay;
      this.options.onChange?.();
      await this.timers.wait(delay);
    }
    return false;
  }

  /** Flow control's rate slots still counting down: saved with the runs, so a restart honours them. */
  rateSlots(now: number): RateSlots[] {
    return this.flowControl.rateSlots(now);
  }

  /** Takes back saved rate slots; call it before the first delivery. */
  restoreRateSlots(saved: readonly RateSlots[]): void {
    this.flowControl.restoreRateSlots(saved);
  }

  close(): void {
    this.closed = true;
    this.closing.abort();
    this.timers.close();
  }

  private async attempt(run: Run, request: RunRequest, retried: number): Promise<Answer> {
    const releaseFlow = request.flowControl
      ? await this.flowControl.acquire(request.flowControl.key, request.flowControl.limits, Date.now, (ms) => this.timers.wait(ms))
      : undefined;
    try {
      const headers: Record<string, string> = { ...request.forwardHeaders };
      if (request.contentType && headers['content-type'] === undefined) headers['content-type'] = request.contentType;
      if (run.labels.length > 0) headers['upstash-label'] = run.labels.join(',');
      headers['upstash-workflow-runid'] = run.workflowRunId;
      headers['upstash-message-id'] = run.messageId;
      headers['upstash-retried'] = String(retried);
      headers['user-agent'] = 'Upstash-QStash';
      headers['upstash-signature'] = await signDelivery(request.destination, request.body, this.options.currentSigningKey);
      const record: Run['attempts'][number] = { retried, startedAt: Date.now() };
      run.attempts.push(record);
      const answer = await this.call(request.destination, request.method, headers, request.body);
      record.status = answer.status;
      record.error = answer.error;
      record.bodyBytes = answer.bodyBytes;
      return answer;
    } finally {
      releaseFlow?.();
    }
  }

  private async call(url: string, method: string, headers: Record<string, string>, body: Buffer): Promise<Answer> {
    const release = await this.slots.acquire();
    let deadline: AnswerDeadline | undefined;
    try {
      if (this.closed) return { headers: {}, body: Buffer.alloc(0), bodyBytes: 0, error: 'the server closed' };
      // One signal for the whole exchange: fetch hands it on to the body's reading. Judged in its
      // timer's callback (AbortSignal.timeout), an answer that came in time while the loop was held
      // was aborted, and its retry delivered the run twice.
      const timedOut = new AbortController();
      deadline = new AnswerDeadline(this.options.deliveryTimeoutMs, () => timedOut.abort(new DOMException(`no answer within ${this.options.deliveryTimeoutMs} ms`, 'TimeoutError')));
      const signal = AbortSignal.any([timedOut.signal, this.closing.signal]);
      let response: globalThis.Response;
      try {
        response = await fetch(url, { method, headers, body: method === 'GET' || method === 'HEAD' ? undefined : body, redirect: 'manual', signal });
      } catch (failure) {
        return { headers: {}, body: Buffer.alloc(0), bodyBytes: 0, error: this.describe(failure, 'no answer') };
      }
      deadline.noteRead();
      const responseHeaders: Record<string, string[]> = {};
      response.headers.forEach((value, name) => (responseHeaders[name.toLowerCase()] = [value]));
      const { body: kept, bodyBytes, failure } = await this.readKept(response, deadline.noteRead);
      if (failure !== undefined) return { headers: responseHeaders, body: kept, bodyBytes, error: this.describe(failure, 'no whole answer') };
      return { status: response.status, headers: responseHeaders, body: kept, bodyBytes };
    } finally {
      deadline?.cancel();
      release();
    }
  }

  /** `what` names the part of the exchange the timeout cut short. */
  private describe(failure: unknown, what: string): string {
    return (failure as Error).name === 'TimeoutError' ? `${what} within ${this.options.deliveryTimeoutMs} ms` : String((failure as Error).message).slice(0, MAX_ERROR_LENGTH);
  }

  /** The body's first keptAnswerBytes, its size as far as it came, and why it stopped short if it did; `onPart` is told of each part read. */
  private async readKept(response: globalThis.Response, onPart: () => void): Promise<{ body: Buffer; bodyBytes: number; failure?: unknown }> {
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let bodyBytes = 0;
    try {
      for await (const chunk of response.body ?? []) {
        onPart();
        bodyBytes += chunk.byteLength;
        if (keptBytes < this.options.keptAnswerBytes) {
          const part = Buffer.from(chunk.buffer, chunk.byteOffset, Math.min(chunk.byteLength, this.options.keptAnswerBytes - keptBytes));
          kept.push(Buffer.from(part));
          keptBytes += part.length;
        }
      }
    } catch (failure) {
      return { body: Buffer.concat(kept), bodyBytes, failure };
    }
    return { body: Buffer.concat(kept), bodyBytes };
  }

  /** The platform's failure callback message: what the last attempt answered, and what was sent. */
  private async callFailureCallback(run: Run, request: RunRequest, last: Answer): Promise<void> {
    const callback = request.failureCallback!;
    run.failureCallback = { url: callback.url, state: 'pending' };
    const payload = Buffer.from(
      JSON.stringify({
        status: last.status ?? 0,
        header: last.headers,
        body: last.body.toString('base64'),
        bodySize: last.bodyBytes,
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
        'content-type': 'application/json',
        'upstash-workflow-runid': run.workflowRunId,
        'upstash-message-id': `msg_${randomUUID()}`,
        'upstash-retried': String(retried),
        'upstash-failure-callback': 'true',
        'user-agent': 'Upstash-QStash',
        'upstash-signature': await signDelivery(callback.url, payload, this.options.currentSigningKey),
      };
      const answer = await this.call(callback.url, 'POST', headers, payload);
      run.failureCallback.status = answer.status;
      if (isSuccess(answer)) {
        run.failureCallback.state = 'delivered';
        this.options.onChange?.();
        return;
      }
      if (retried < request.retries) {
        const delay = retryAfterMs(answer.headers, Date.now()) ?? (request.retryDelay ?? exponentialBackoff)(retried);
        await this.timers.wait(delay * this.options.timeScale);
      }
    }
    if (!this.closed) run.failureCallback.state = 'failed';
  }
}

function isSuccess(answer: Answer): boolean {
  return answer.status !== undefined && answer.status >= 200 && answer.status < 300;
}
