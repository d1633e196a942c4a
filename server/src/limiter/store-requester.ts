// How the plugin talks to the key-value REST store: node:http with keep-alive, a timeout on every
// call, and the commands issued in the same turn of the event loop sent as one /pipeline request.
// It replaces @upstash/redis's default transport (global fetch, one request per command), which
// costs several times more CPU per request and cannot batch commands from different limiters.
import http from 'node:http';
import https from 'node:https';
import type { Requester, UpstashRequest, UpstashResponse } from '@upstash/redis';

interface Pending {
  readonly command: unknown;
  resolve(response: UpstashResponse<unknown>): void;
  reject(failure: Error): void;
}

export class StoreUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreUnavailableError';
  }
}

export class PipeliningRequester implements Requester {
  private readonly endpoint: URL;
  private readonly transport: typeof http | typeof https;
  private readonly agent: http.Agent;
  private readonly authorization: string;
  /** Request targets by REST path, resolved once each (`''`, `pipeline`, `multi-exec`, ...). */
  private readonly targets = new Map<string, { readonly hostname: string; readonly port: string; readonly path: string }>();
  private queue: Pending[] = [];
  private flushScheduled = false;

  constructor(url: string, token: string, private readonly timeoutMs: number) {
    this.endpoint = new URL(url.endsWith('/') ? url : `${url}/`);
    this.transport = this.endpoint.protocol === 'https:' ? https : http;
    this.agent = new this.transport.Agent({ keepAlive: true, maxSockets: 64 });
    this.authorization = `Bearer ${token}`;
  }

  request<TResult = unknown>(request: UpstashRequest): Promise<UpstashResponse<TResult>> {
    if (request.path && request.path.length > 0) return this.post(request.path.join('/'), request.body) as Promise<UpstashResponse<TResult>>;
    return new Promise((resolve, reject) => {
      this.queue.push({ command: request.body, resolve: resolve as Pending['resolve'], reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  close(): void {
    this.agent.destroy();
  }

  private flush(): void {
    const batch = this.queue;
    this.queue = [];
    this.flushScheduled = false;
    if (batch.length === 1) {
      this.post('', batch[0].command).then((response) => batch[0].resolve(response as UpstashResponse<unknown>), batch[0].reject);
      return;
    }
    this.post('pipeline', batch.map((pending) => pending.command)).then(
      (responses) => {
        if (!Array.isArray(responses) || responses.length !== batch.length) {
          // A refused pipeline (wrong token, oversized body) answers one `{ error }` for all.
          const refusal = (responses as { error?: unknown } | undefined)?.error;
          const failure = new StoreUnavailableError(typeof refusal === 'string' ? refusal : 'the key-value store answered a pipeline with an unexpected body');
          batch.forEach((pending) => pending.reject(failure));
          return;
        }
        batch.forEach((pending, index) => pending.resolve(responses[index] as UpstashResponse<unknown>));
      },
      (failure: Error) => batch.forEach((pending) => pending.reject(failure)),
    );
  }

  private target(path: string): { hostname: string; port: string; path: string } {
    let target = this.targets.get(path);
    if (!target) {
      const url = new URL(path, this.endpoint);
      // An IPv6 literal is `[::1]` in a URL but `::1` for node:http.
      target = { hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: url.port, path: `${url.pathname}${url.search}` };
      this.targets.set(path, target);
    }
    return target;
  }

  private post(path: string, body: unknown): Promise<UpstashResponse<unknown> | UpstashResponse<unknown>[]> {
    const payload = JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const request = this.transport.request(
        {
          ...this.target(path),
          method: 'POST',
          agent: this.agent,
          headers: { authorization: this.authorization, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', (failure) => settle(new StoreUnavailableError(failure.message)));
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            try {
              settle(undefined, JSON.parse(text));
            } catch {
              settle(new StoreUnavailableError(`the key-value store answered ${response.statusCode} with a body that is not JSON`));
            }
          });
        },
      );
      // A deadline for the whole call (waiting for a socket, connecting, the answer), not an idle
      // timer: a store that trickles bytes or a saturated pool must not hold requests past it.
      const deadline = setTimeout(() => request.destroy(new StoreUnavailableError(`no answer from the key-value store within ${this.timeoutMs} ms`)), this.timeoutMs);
      const settle = (failure: Error | undefined, answer?: UpstashResponse<unknown> | UpstashResponse<unknown>[]): void => {
        clearTimeout(deadline);
        if (failure) reject(failure);
        else resolve(answer!);
      };
      request.on('error', (failure) => settle(failure instanceof StoreUnavailableError ? failure : new StoreUnavailableError(failure.message)));
      request.end(payload);
    });
  }
}
