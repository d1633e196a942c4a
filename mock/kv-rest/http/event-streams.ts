// The Server-Sent Events routes: /monitor and /subscribe|/psubscribe/<targets>, each line `data: <text>`.
// A stream holds an engine subscription that is closed when the client goes away or the server stops.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bytesToUtf8 } from '../bytes';
import type { Caller, Engine, Subscription } from '../engine';
import { HttpError, engineFailure } from './http-error';

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

  private async attach(request: IncomingMessage, response: ServerResponse, start: () => Promise<Subscription>): Promise<void> {
    let subscription: Subscription;
    try {
      subscription = await start();
    } catch (failure) {
      throw engineFailure(failure);
    }
    this.open.add(subscription);
    const end = (): void => {
      if (!this.open.delete(subscription)) return;
      void subscription.close().catch(() => undefined);
      response.end();
    };
    request.on('close', end);
    response.on('close', end);
  }

  async monitor(request: IncomingMessage, response: ServerResponse, engine: Engine, caller: Caller): Promise<void> {
    await this.attach(request, response, async () => {
      const subscription = await engine.monitor((line) => sendData(response, bytesToUtf8(line)), caller);
      openStream(response);
      sendData(response, '"OK"');
      return subscription;
    });
  }

  async subscribe(request: IncomingMessage, response: ServerResponse, engine: Engine, mode: 'channel' | 'pattern', targets: string[], caller: Caller): Promise<void> {
    let started = false;
    const pending: string[] = [];
    const emit = (fields: readonly string[]): void => {
      const line = fields.map(bytesToUtf8).join(',');
      if (started) sendData(response, line);
      else pending.push(line);
    };
    await this.attach(request, response, async () => {
      const subscription = await engine.subscribe(mode, targets, emit, caller);
      openStream(response);
      started = true;
      for (const line of pending) sendData(response, line);
      return subscription;
    });
  }

  async closeAll(): Promise<void> {
    const subscriptions = [...this.open];
    this.open.clear();
    await Promise.all(subscriptions.map((subscription) => subscription.close().catch(() => undefined)));
  }
}
