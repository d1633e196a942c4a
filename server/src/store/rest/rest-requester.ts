// How the plugin talks to the key-value REST store: @upstash/redis's Requester over our own
// keep-alive HTTP/1.1 connections (rest-connections.ts), a timeout on every call, a circuit breaker
// that stops calling a store that has just failed (store-circuit.ts), and the commands issued in the
// same turn of the event loop sent as one /pipeline request (shared/turn-batch.ts). It replaces
// @upstash/redis's default transport (global fetch, one request per command), which costs several
// times more CPU per request and cannot batch commands from different limiters.
import type { ConnectionOptions } from 'node:tls';
import type { Requester, UpstashRequest, UpstashResponse } from '@upstash/redis';
import { TurnBatch } from '../../../../shared/turn-batch';
import { StoreCircuit } from '../store-circuit';
import { StoreConnections, StoreUnavailableError } from './rest-connections';

export { StoreUnavailableError };

interface Pending {
  readonly command: unknown;
  resolve(response: UpstashResponse<unknown>): void;
  reject(failure: Error): void;
}

type StoreAnswer = UpstashResponse<unknown> | UpstashResponse<unknown>[];

/** Connections to the store at most; more concurrent batches wait for one. */
const MAX_CONNECTIONS = 64;
/**
 * The most bytes one store answer may have. The request path's answers are a few hundred bytes (a
 * pipeline of one script reply per strategy and the deny check); the largest the plugin asks for
 * are the admin page's: a SCAN batch of 5000 keys (usage-service.ts), each at most about 2 KiB
 * (a 128-character prefix, a 512-character path pattern escaped, a 128-character identifier), so
 * 10 MiB at worst, and the deny list's 1000 members with their metadata, under 1 MiB. A store
 * answering more is not one this plugin can use: the call fails as a store failure.
 */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;
/** Below Node's default 5 s keep-alive timeout, so the server never closes a connection we reuse. */
const IDLE_REUSE_MS = 4000;

export class PipeliningRequester implements Requester {
  private readonly connections: StoreConnections;
  private readonly circuit = new StoreCircuit();
  /** The request line and fixed headers per REST path (`''`, `pipeline`, `multi-exec`, ...). */
  private readonly heads = new Map<string, string>();
  private readonly endpoint: URL;
  private readonly fixedHeaders: string;
  private readonly batch = new TurnBatch<Pending>((batch) => this.flush(batch));

  /** `tls`: for an https store, its connections' TLS options (../tls-trust.ts: the CAs to trust, in one secure context); Node's own CAs without it. */
  constructor(url: string, token: string, timeoutMs: number, tls?: ConnectionOptions) {
    this.endpoint = new URL(url.endsWith('/') ? url : `${url}/`);
    this.connections = new StoreConnections(this.endpoint, timeoutMs, { maxConnections: MAX_CONNECTIONS, idleReuseMs: IDLE_REUSE_MS, maxAnswerBytes: MAX_ANSWER_BYTES, tls });
    this.fixedHeaders = `host: ${this.endpoint.host}\r\nauthorization: Bearer ${token}\r\ncontent-type: application/json\r\n`;
  }

  request<TResult = unknown>(request: UpstashRequest): Promise<UpstashResponse<TResult>> {
    if (request.path && request.path.length > 0) return this.post(request.path.join('/'), request.body) as Promise<UpstashResponse<TResult>>;
    return new Promise((resolve, reject) => this.batch.add({ command: request.body, resolve: resolve as Pending['resolve'], reject }));
  }

  close(): void {
    this.connections.close();
  }

  private flush(batch: Pending[]): void {
    if (batch.length === 1) {
      this.post('', batch[0].command).then((response) => batch[0].resolve(response as UpstashResponse<unknown>), batch[0].reject);
      return;
    }
    this.post('pipeline', batch.map((pending) => pending.command)).then(
      (responses) => {
        if (!Array.isArray(responses) || responses.length !== batch.length) {
          // A refused pipeline (wrong token, oversized body) answers one `{ error }` for all: each
          // command gets it, as a lone command would have (the store answered: it is no outage).
          const refusal = (responses as { error?: unknown } | undefined)?.error;
          if (typeof refusal === 'string') batch.forEach((pending) => pending.resolve({ error: refusal } as UpstashResponse<unknown>));
          else batch.forEach((pending) => pending.reject(new StoreUnavailableError('the key-value store answered a pipeline with an unexpected body')));
          return;
        }
        batch.forEach((pending, index) => pending.resolve(responses[index] as UpstashResponse<unknown>));
      },
      (failure: Error) => batch.forEach((pending) => pending.reject(failure)),
    );
  }

  private head(path: string): string {
    let head = this.heads.get(path);
    if (head === undefined) {
      const url = new URL(path, this.endpoint);
      head = `POST ${url.pathname}${url.search} HTTP/1.1\r\n${this.fixedHeaders}`;
      this.heads.set(path, head);
    }
    return head;
  }

  private async post(path: string, body: unknown): Promise<StoreAnswer> {
    const payload = JSON.stringify(body);
    const request = `${this.head(path)}content-length: ${Buffer.byteLength(payload)}\r\n\r\n${payload}`;
    const response = await this.circuit.run(() => this.connections.send(request));
    try {
      return JSON.parse(response.body.toString('utf8')) as StoreAnswer;
    } catch (failure) {
      throw new StoreUnavailableError(`the key-value store answered ${response.status} with a body that is not JSON`, { cause: failure });
    }
  }
}
