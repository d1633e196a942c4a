// The Server-Sent Events routes: /monitor and /subscribe|/psubscribe/<targets>, each line `data: <text>`.
// A stream holds an engine subscription that is closed when the client goes away or the server stops.
// Each stream's unsent output is bounded: a client that reads slower than its events arrive is
// disconnected once that much waits for it, as Redis drops pub/sub clients past
// `client-output-buffer-limit pubsub`; nothing else holds events for it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bytesToUtf8 } from '../bytes';
import type { Caller, Engine, Subscription } from '../engine';
import { HttpError } from '../../http-kit/http-error';
import { engineFailure } from './http-error';

function openStream(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  response.flushHeaders();
}

/** One SSE event; a payload spanning lines is sent as several `data:` lines, as SSE requires. */
function sendData(response: ServerResponse, text: string): void {
  response.write(`${text.split(/\r\n|\r|\n/).map((line) => `data: ${line}`).join('\n')}\n\n`);
}

export function requireEventStream(request: IncomingMessage, route: string): void {
  if (!String(request.headers.accept ?? '').includes('text/event-stream')) {
    throw new HttpError(400, `ERR ${route} streams Server-Sent Events: send the header Accept: text/event-stream`);
  }
}

/** Keeps track of open streams so the server can end them on close. */
export class EventStreams {
  private readonly open = new Set<Subscription>();

  /** `maxBufferedBytes`: unsent output past which a stream's client is disconnected. */
  constructor(private readonly maxBufferedBytes: number) {}

  /**
   * Opens a stream: `start` gets the function to call with each event's text, and may call it
   * before its subscription resolves (Redis's confirmation and the first events can arrive in one
   * chunk); such events wait, bounded, until the response has started. The close handler is in
   * place before anything can fail, so a subscription always ends with its client.
   */
  private async attach(response: ServerResponse, firstLine: string | undefined, start: (emit: (text: string) => void) => Promise<Subscription>): Promise<void> {
    let subscription: Subscription | undefined;
    let started = false;
    let ended = false;
    const early: string[] = [];
    let earlyBytes = 0;
    const end = (): void => {
      if (ended) return;
      ended = true;
      if (subscription && this.open.delete(subscription)) void subscription.close().catch(() => undefined);
      if (started) response.destroy();
    };
    response.on('close', end);
    const emit = (text: string): void => {
      if (ended) return;
      if (started) this.write(response, text, end);
      else if ((earlyBytes += text.length) > this.maxBufferedBytes) end();
      else early.push(text);
    };
    try {
      subscription = await start(emit);
    } catch (failure) {
      ended = true;
      throw engineFailure(failure);
    }
    if (ended) {
      // The client left (or the early events overflowed) while the stream opened.
      void subscription.close().catch(() => undefined);
      if (!response.headersSent) response.destroy();
      return;
    }
    this.open.add(subscription);
    openStream(response);
    started = true;
    if (firstLine !== undefined) this.write(response, firstLine, end);
    for (const text of early.splice(0)) this.write(response, text, end);
  }

  /** Sends one event, or disconnects a client that has let more than the bound pile up. */
  private write(response: ServerResponse, text: string, end: () => void): void {
    if (response.destroyed) return;
    sendData(response, text);
    if (response.writableLength > this.maxBufferedBytes) end();
  }

  async monitor(response: ServerResponse, engine: Engine, caller: Caller): Promise<void> {
    await this.attach(response, '"OK"', (emit) => engine.monitor((line) => emit(bytesToUtf8(line)), caller));
  }

  async subscribe(response: ServerResponse, engine: Engine, mode: 'channel' | 'pattern', targets: string[], caller: Caller): Promise<void> {
    await this.attach(response, undefined, (emit) => engine.subscribe(mode, targets, (fields) => emit(fields.map(bytesToUtf8).join(',')), caller));
  }

  async closeAll(): Promise<void> {
    const subscriptions = [...this.open];
    this.open.clear();
    await Promise.all(subscriptions.map((subscription) => subscription.close().catch(() => undefined)));
  }
}
