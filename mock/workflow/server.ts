// The workflow trigger server (seed Area A): POST /v2/trigger/<workflow url>, the batch endpoints
// the official clients use, and run inspection; every failure is a JSON `{error}` with its status.
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DeliveryService } from './delivery';
import { RunRegistry, type Run } from './runs';
import { readRunRequest, TriggerError, type RunRequest } from './trigger-request';

export interface WorkflowServerOptions {
  /** Interface to bind (default 127.0.0.1). */
  host?: string;
  /** Port; 0 (the default) picks a free one. */
  port?: number;
  /** Bearer token clients must send (random when absent). */
  token?: string;
  /** Header prefix: `Upstash` (default, what the official clients send) or `Svc` (the seed's names). */
  prefix?: string;
  /** Keys the deliveries are signed with (random when absent). */
  currentSigningKey?: string;
  nextSigningKey?: string;
  /** Multiplies every wait (delays, retry delays); 0.001 runs a day of backoff in about 86 s. Default 1. */
  timeScale?: number;
  /** A delivery with no answer after this long is a failed attempt (default 15000 ms). */
  deliveryTimeoutMs?: number;
  /** Largest request body (default 1 MiB). */
  maxBodyBytes?: number;
  /** Most runs waiting or being delivered at once; a trigger beyond it gets 429 (default 10000). */
  maxActiveRuns?: number;
}

export interface WorkflowServer {
  readonly url: string;
  readonly token: string;
  readonly currentSigningKey: string;
  readonly nextSigningKey: string;
  readonly runs: RunRegistry;
  close(): Promise<void>;
}

class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/** Compares digests so neither the time taken nor a length mismatch tells how much of a token was right. */
function sameToken(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

const secret = (prefix: string): string => `${prefix}_${randomBytes(18).toString('base64url')}`;

function readBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) reject(new HttpError(413, `request body exceeds ${limit} bytes`));
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function lowerCaseHeaders(headers: IncomingMessage['headers'] | Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== undefined).map(([name, value]) => [name.toLowerCase(), Array.isArray(value) ? value.join(',') : String(value)]));
}

export async function startWorkflowServer(options: WorkflowServerOptions = {}): Promise<WorkflowServer> {
  const prefix = options.prefix ?? 'Upstash';
  const token = options.token ?? secret('wf');
  const currentSigningKey = options.currentSigningKey ?? secret('sig');
  const nextSigningKey = options.nextSigningKey ?? secret('sig');
  const timeScale = options.timeScale ?? 1;
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const maxActiveRuns = options.maxActiveRuns ?? 10_000;
  const runs = new RunRegistry();
  const delivery = new DeliveryService({ currentSigningKey, timeScale, deliveryTimeoutMs: options.deliveryTimeoutMs ?? 15_000 });
  const tokenParams = new Set(['qstash_token', 'svc_token', `${prefix.toLowerCase()}_token`]);

  /** Starts a run, or answers the existing one for a run id given twice. */
  function trigger(request: RunRequest): { run: Run; deduplicated: boolean } {
    const existing = request.runId ? runs.get(request.runId) : undefined;
    if (existing) return { run: existing, deduplicated: true };
    if (runs.activeCount() >= maxActiveRuns) throw new HttpError(429, `too many runs waiting for delivery (at most ${maxActiveRuns}): try again when some have finished`);
    const run: Run = {
      workflowRunId: request.runId ?? `wfr_${randomUUID()}`,
      workflowCreatedAt: Date.now(),
      messageId: `msg_${randomUUID()}`,
      url: request.destination,
      method: request.method,
      labels: request.labels,
      maxRetries: request.retries,
      state: 'scheduled',
      attempts: [],
    };
    runs.add(run);
    delivery.start(run, request);
    return { run, deduplicated: false };
  }

  function authorize(request: IncomingMessage, query: URLSearchParams): void {
    const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const given = bearer ?? [...tokenParams].map((name) => query.get(name)).find((value) => value !== null);
    if (given === undefined || !sameToken(given, token)) throw new HttpError(401, given === undefined ? 'missing token: send Authorization: Bearer <token>' : 'invalid token');
  }

  function batchEntries(body: Buffer): { destination: string; headers: Record<string, string>; body: Buffer }[] {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      throw new HttpError(400, 'the batch body must be a JSON array of {destination, headers?, body?}');
    }
    if (!Array.isArray(parsed) || parsed.length === 0) throw new HttpError(400, 'the batch body must be a non-empty JSON array of {destination, headers?, body?}');
    return parsed.map((entry, index) => {
      const item = entry as { destination?: unknown; headers?: unknown; body?: unknown };
      if (typeof item?.destination !== 'string') throw new HttpError(400, `batch entry ${index + 1} needs a destination URL`);
      const headers = typeof item.headers === 'object' && item.headers !== null ? lowerCaseHeaders(item.headers as Record<string, unknown>) : {};
      const content = item.body === undefined ? '' : typeof item.body === 'string' ? item.body : JSON.stringify(item.body);
      return { destination: item.destination, headers, body: Buffer.from(content) };
    });
  }

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const rawUrl = request.url ?? '/';
    const apiQuery = new URLSearchParams(rawUrl.includes('?') ? rawUrl.slice(rawUrl.indexOf('?') + 1) : '');
    authorize(request, apiQuery);
    const send = (status: number, body: unknown): void => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const method = request.method ?? 'GET';
    if (rawUrl.startsWith('/v2/trigger/')) {
      if (method !== 'POST') throw new HttpError(405, 'POST /v2/trigger/<workflow url>');
      // The destination keeps its own query string; only the API's token parameters are removed.
      // Some proxies collapse `https://` in a path to `https:/`, so that is mended too.
      const [base, query = ''] = rawUrl.slice('/v2/trigger/'.length).replace(/^(https?):\/(?!\/)/, '$1://').split(/\?(.*)/s);
      const kept = query.split('&').filter((pair) => pair && !tokenParams.has(pair.split('=')[0]));
      const body = await readBody(request, maxBodyBytes);
      const { run } = trigger(readRunRequest(kept.length > 0 ? `${base}?${kept.join('&')}` : base, lowerCaseHeaders(request.headers), body, prefix, Date.now(), timeScale));
      return send(200, { workflowRunId: run.workflowRunId, workflowCreatedAt: run.workflowCreatedAt });
    }
    const path = rawUrl.split('?')[0];
    if (path === '/v2/batch/trigger' || path === '/v2/batch') {
      if (method !== 'POST') throw new HttpError(405, `POST ${path}`);
      const entries = batchEntries(await readBody(request, maxBodyBytes));
      const requests = entries.map((entry) => readRunRequest(entry.destination, entry.headers, entry.body, prefix, Date.now(), timeScale));
      // All or nothing: a batch that would pass the cap starts none of its runs.
      if (runs.activeCount() + requests.length > maxActiveRuns) throw new HttpError(429, `this batch of ${requests.length} would pass the cap of ${maxActiveRuns} runs waiting for delivery`);
      const started = requests.map(trigger);
      if (path === '/v2/batch') return send(200, started.map(({ run }) => ({ messageId: run.messageId })));
      return send(201, started.map(({ run, deduplicated }) => ({ workflowRunId: run.workflowRunId, workflowCreatedAt: run.workflowCreatedAt, deduplicated })));
    }
    if (path === '/v2/workflows/runs') {
      if (method !== 'GET') throw new HttpError(405, 'GET /v2/workflows/runs');
      return send(200, { runs: runs.list({ label: apiQuery.get('label') ?? undefined, state: apiQuery.get('state') ?? undefined }) });
    }
    if (path.startsWith('/v2/workflows/runs/')) {
      if (method !== 'GET') throw new HttpError(405, 'GET /v2/workflows/runs/<id>');
      const run = runs.get(decodeURIComponent(path.slice('/v2/workflows/runs/'.length)));
      if (!run) throw new HttpError(404, 'no run with this id');
      return send(200, run);
    }
    throw new HttpError(404, `no route ${method} ${path}: use POST /v2/trigger/<workflow url>`);
  }

  const server = createServer((request, response) => {
    route(request, response).catch((failure: unknown) => {
      const status = failure instanceof HttpError ? failure.status : failure instanceof TriggerError ? 400 : 500;
      const message = failure instanceof Error ? failure.message : String(failure);
      if (response.headersSent) return response.destroy();
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: message }));
      if (status === 413) request.resume();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`,
    token,
    currentSigningKey,
    nextSigningKey,
    runs,
    async close() {
      delivery.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
