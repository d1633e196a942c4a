// The workflow trigger server (seed Area A): POST /v2/trigger/<workflow url>, the batch endpoints
// the official clients use, and run inspection; every failure is a JSON `{error}` with its status.
// Every resource a caller can make it hold has a bound, each an option below (and a CLI flag).
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { closeBoundedServer, CONNECTION_BOUNDS_DEFAULTS, createBoundedServer } from '../http-kit/bounded-server';
import { checkWholeNumbers, CONNECTION_BOUND_NAMES } from '../http-kit/check-bounds';
import { answerFailure, failureAnswer } from '../http-kit/error-funnel';
import { HttpError } from '../http-kit/http-error';
import { listen } from '../http-kit/listen';
import { withDefaults } from '../http-kit/with-defaults';
import { readBody } from '../http-kit/read-body';
import { sameToken } from '../http-kit/tokens';
import { BatchError, readBatch } from './batch-body';
import { DeliveryService } from './delivery';
import { decodePathSegment, lowerCaseHeaders, sendJson } from './request-helpers';
import { RunRegistry, type Run } from './runs';
import { type ActiveRun, loadState, StateWriter } from './state-file';
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
  /** Multiplies every wait (Delay, Not-Before, flow-control period, retry delays); 0.001 runs a day of backoff in about 86 s. Default 1. */
  timeScale?: number;
  /** A delivery with no answer after this long is a failed attempt (default 15000 ms). */
  deliveryTimeoutMs?: number;
  /** Largest request body (default 1 MiB). */
  maxBodyBytes?: number;
  /** Most runs waiting or being delivered at once; a trigger beyond it gets 429 (default 10000). */
  maxActiveRuns?: number;
  /** Most bytes of bodies held for runs not finished yet; a trigger beyond it gets 429 (default 256 MiB). */
  maxPendingBodyBytes?: number;
  /** Most calls (deliveries and failure callbacks) in flight at once; more wait their turn (default 64). */
  maxConcurrentDeliveries?: number;
  /** Finished runs kept for inspection; the oldest is dropped past it (default 10000). */
  keptFinishedRuns?: number;
  /** Bytes kept of each answer body, for the failure callback (default 64 KiB); its full size is recorded. */
  keptAnswerBytes?: number;
  /** Longest wait for a request's headers (default 10000 ms); then 408 and the connection closes. */
  headersTimeoutMs?: number;
  /** Longest wait for a whole request, body included (default 30000 ms); then 408 and the connection closes. */
  requestTimeoutMs?: number;
  /** Open connections at most (default 10000); connections past it are closed at once. */
  maxConnections?: number;
  /** After a 413, longest the rest of the body is read and thrown away so the client sees the answer (default 5000 ms); then the connection is destroyed. */
  lingerTimeoutMs?: number;
  /** After a 413, most bytes of the rest of the body read and thrown away (default 64 MiB); past it the connection is destroyed. */
  maxLingerBytes?: number;
  /** A file to keep unfinished runs in, so they survive a restart (default: none, state in memory only). */
  statePath?: string;
}

export interface WorkflowServer {
  readonly url: string;
  readonly token: string;
  readonly currentSigningKey: string;
  readonly nextSigningKey: string;
  readonly runs: RunRegistry;
  close(): Promise<void>;
}

/** The value of every option left out; the CLI's help text is built from these. */
export const WORKFLOW_DEFAULTS = {
  host: '127.0.0.1',
  port: 0,
  prefix: 'Upstash',
  timeScale: 1,
  deliveryTimeoutMs: 15_000,
  maxBodyBytes: 1024 * 1024,
  maxActiveRuns: 10_000,
  maxPendingBodyBytes: 256 * 1024 * 1024,
  maxConcurrentDeliveries: 64,
  keptFinishedRuns: 10_000,
  keptAnswerBytes: 64 * 1024,
  ...CONNECTION_BOUNDS_DEFAULTS,
} as const;

const secret = (prefix: string): string => `${prefix}_${randomBytes(18).toString('base64url')}`;
const DEFAULT_PAGE = 100;
const MAX_PAGE = 1000;

/** A bound of 0 would refuse or stall everything: each must be a whole number of at least 1. */
function checkBounds(options: WorkflowServerOptions): void {
  const bounds = ['deliveryTimeoutMs', 'maxBodyBytes', 'maxActiveRuns', 'maxPendingBodyBytes', 'maxConcurrentDeliveries', 'keptFinishedRuns', 'keptAnswerBytes', ...CONNECTION_BOUND_NAMES] as const;
  checkWholeNumbers('workflow server', options, bounds);
  if (options.timeScale !== undefined && !(options.timeScale > 0 && Number.isFinite(options.timeScale))) throw new RangeError(`workflow server option timeScale must be a positive number, got ${options.timeScale}`);
}

export async function startWorkflowServer(options: WorkflowServerOptions = {}): Promise<WorkflowServer> {
  checkBounds(options);
  const settings = withDefaults(WORKFLOW_DEFAULTS, options);
  const { prefix, timeScale, maxBodyBytes, maxActiveRuns, maxPendingBodyBytes } = settings;
  const token = options.token ?? secret('wf');
  const currentSigningKey = options.currentSigningKey ?? secret('sig');
  const nextSigningKey = options.nextSigningKey ?? secret('sig');
  const runs = new RunRegistry(settings.keptFinishedRuns);
  /** Runs not finished yet, with what their delivery needs: what a state file saves. */
  const active = new Map<string, ActiveRun>();
  // Read before listening, so a state file this version cannot read stops the start cleanly.
  const saved = options.statePath === undefined ? { runs: [], rateSlots: [] } : loadState(options.statePath);
  const stateWriter = options.statePath === undefined ? undefined : new StateWriter(options.statePath, () => ({ runs: active.values(), rateSlots: delivery.rateSlots(Date.now()) }));
  const delivery = new DeliveryService({
    onChange: () => stateWriter?.changed(),
    currentSigningKey,
    timeScale,
    deliveryTimeoutMs: settings.deliveryTimeoutMs,
    maxConcurrentDeliveries: settings.maxConcurrentDeliveries,
    keptAnswerBytes: settings.keptAnswerBytes,
  });
  const tokenParams = new Set(['qstash_token', 'svc_token', `${prefix.toLowerCase()}_token`]);
  let pendingBodyBytes = 0;

  /** Refuses, before any run starts, triggers that would pass the caps: a batch is all or nothing. */
  function checkRoom(requests: readonly RunRequest[]): void {
    const fresh = requests.filter((request) => !runs.existing(request.runId, request.deduplicationId));
    const bytes = fresh.reduce((sum, request) => sum + request.body.length, 0);
    if (runs.activeCount() + fresh.length > maxActiveRuns) throw new HttpError(429, `too many runs waiting for delivery (at most ${maxActiveRuns}): try again when some have finished`);
    if (pendingBodyBytes + bytes > maxPendingBodyBytes) throw new HttpError(429, `the bodies of runs waiting for delivery would pass ${maxPendingBodyBytes} bytes: try again when some have finished`);
  }

  /** Starts a run, or answers the existing one for a run id or deduplication id given twice. */
  function trigger(request: RunRequest): { run: Run; deduplicated: boolean } {
    const existing = runs.existing(request.runId, request.deduplicationId);
    if (existing) return { run: existing, deduplicated: true };
    const run: Run = {
      workflowRunId: request.runId ?? `wfr_${randomUUID()}`,
      workflowCreatedAt: Date.now(),
      messageId: `msg_${randomUUID()}`,
      url: request.destination,
      method: request.method,
      labels: request.labels,
      maxRetries: request.retries,
      deduplicationId: request.deduplicationId,
      state: 'scheduled',
      attempts: [],
    };
    begin({ run, request, progress: {} });
    return { run, deduplicated: false };
  }

  /** Holds a run (new, or restored from the state file) until its delivery is over. */
  function begin(entry: ActiveRun): void {
    const { run, request } = entry;
    runs.add(run);
    active.set(run.workflowRunId, entry);
    pendingBodyBytes += request.body.length;
    stateWriter?.changed();
    void delivery
      .deliver(run, request, entry.progress)
      .catch(() => undefined)
      .then(() => {
        pendingBodyBytes -= request.body.length;
        active.delete(run.workflowRunId);
        runs.finish(run);
        stateWriter?.changed();
      });
  }

  function authorize(request: IncomingMessage, query: URLSearchParams): void {
    const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const given = bearer ?? [...tokenParams].map((name) => query.get(name)).find((value) => value !== null);
    if (given === undefined || !sameToken(given, token)) throw new HttpError(401, given === undefined ? 'missing token: send Authorization: Bearer <token>' : 'invalid token');
  }

  function pageSize(text: string | null): number {
    if (text === null) return DEFAULT_PAGE;
    if (!/^\d{1,4}$/.test(text) || Number(text) < 1 || Number(text) > MAX_PAGE) throw new HttpError(400, `count must be a whole number from 1 to ${MAX_PAGE}`);
    return Number(text);
  }

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const rawUrl = request.url ?? '/';
    const apiQuery = new URLSearchParams(rawUrl.includes('?') ? rawUrl.slice(rawUrl.indexOf('?') + 1) : '');
    authorize(request, apiQuery);
    const method = request.method ?? 'GET';
    if (rawUrl.startsWith('/v2/trigger/')) {
      if (method !== 'POST') throw new HttpError(405, 'POST /v2/trigger/<workflow url>');
      // The destination keeps its own query string; only the API's token parameters are removed.
      // Some proxies collapse `https://` in a path to `https:/`, so that is mended too.
      const [base, query = ''] = rawUrl.slice('/v2/trigger/'.length).replace(/^(https?):\/(?!\/)/, '$1://').split(/\?(.*)/s);
      const kept = query.split('&').filter((pair) => pair && !tokenParams.has(pair.split('=')[0]));
      const body = await readBody(request, maxBodyBytes);
      const runRequest = readRunRequest(kept.length > 0 ? `${base}?${kept.join('&')}` : base, lowerCaseHeaders(request.headers), body, prefix, Date.now(), timeScale);
      checkRoom([runRequest]);
      const { run } = trigger(runRequest);
      return sendJson(response, 200, { workflowRunId: run.workflowRunId, workflowCreatedAt: run.workflowCreatedAt });
    }
    const path = rawUrl.split('?')[0];
    if (path === '/v2/batch/trigger' || path === '/v2/batch') {
      if (method !== 'POST') throw new HttpError(405, `POST ${path}`);
      const entries = readBatch(await readBody(request, maxBodyBytes));
      const requests = entries.map((entry) => readRunRequest(entry.destination, entry.headers, entry.body, prefix, Date.now(), timeScale));
      checkRoom(requests);
      const started = requests.map(trigger);
      if (path === '/v2/batch') return sendJson(response, 200, started.map(({ run, deduplicated }) => ({ messageId: run.messageId, deduplicated })));
      return sendJson(response, 201, started.map(({ run, deduplicated }) => ({ workflowRunId: run.workflowRunId, workflowCreatedAt: run.workflowCreatedAt, deduplicated })));
    }
    if (path === '/v2/workflows/runs') {
      if (method !== 'GET') throw new HttpError(405, 'GET /v2/workflows/runs');
      const filter = { label: apiQuery.get('label') ?? undefined, state: apiQuery.get('state') ?? undefined };
      return sendJson(response, 200, runs.list(filter, { cursor: apiQuery.get('cursor') ?? undefined, count: pageSize(apiQuery.get('count')) }));
    }
    if (path.startsWith('/v2/workflows/runs/')) {
      if (method !== 'GET') throw new HttpError(405, 'GET /v2/workflows/runs/<id>');
      const run = runs.get(decodePathSegment(path.slice('/v2/workflows/runs/'.length), 'the run id'));
      if (!run) throw new HttpError(404, 'no run with this id');
      return sendJson(response, 200, run);
    }
    throw new HttpError(404, `no route ${method} ${path}: use POST /v2/trigger/<workflow url>`);
  }

  const server = createBoundedServer(settings, '', (request, response) => {
    route(request, response).catch((failure: unknown) => {
      // An unexpected failure is answered without its message: it is ours, not the caller's.
      const { status, message } = failureAnswer(failure, (known) => known instanceof TriggerError || known instanceof BatchError, () => 'internal error');
      answerFailure(request, response, status, message, settings, (answerStatus, body) => {
        response.writeHead(answerStatus, { 'content-type': 'application/json' });
        response.end(body);
      });
    });
  });
  const address = await listen(server, settings.port, settings.host);
  // Only once listening: a server that failed to start must not deliver anything.
  delivery.restoreRateSlots(saved.rateSlots);
  for (const entry of saved.runs) begin(entry);
  let closing: Promise<void> | undefined;
  return {
    url: `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`,
    token,
    currentSigningKey,
    nextSigningKey,
    runs,
    close() {
      // Once only: a second close must not save the state again after runs were cut short.
      closing ??= (async () => {
        delivery.close();
        await stateWriter?.close();
        await closeBoundedServer(server);
      })();
      return closing;
    },
  };
}
