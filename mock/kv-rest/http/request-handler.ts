// The HTTP face of the key-value REST API: method and token checks, the routes of seed Area B,
// the output formats, and `{error}` bodies for every failure (the server never answers a stack).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { noPermissionText } from '../command-table';
import type { Engine } from '../engine';
import { type Command, commandFromJsonBody, commandFromPath, commandsFromJsonBody } from './command-input';
import { callerOf, type CommandRunner, type RunContext } from './command-runner';
import { encodeEnvelope, encodeEnvelopes } from './encode-json';
import { encodeResp2 } from './encode-resp2';
import { ConnectionMemo } from './connection-memo';
import { EventStreams, requireEventStream } from './event-streams';
import { HttpError } from '../../http-kit/http-error';
import { UNAUTHORIZED_TEXT } from './http-error';
import { answerFailure, failureAnswer } from '../../http-kit/error-funnel';
import type { LingerBounds } from '../../http-kit/lingering-close';
import { readBodyThen } from '../../http-kit/read-body';
import type { TokenRegistry } from './tokens';

const ALLOWED_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT']);
const BODY_METHODS = new Set(['POST', 'PUT']);

export interface HandlerOptions {
  /** Header prefix of the platform: `Upstash` (real clients) or `Svc` (the seed's names). */
  readonly prefix: string;
  /** Bodies larger than this are refused with 413 before they are read whole. */
  readonly maxBodyBytes: number;
  /** A stream's unsent output past which its client is disconnected. */
  readonly maxStreamBufferBytes: number;
  /** How long and how much of a refused body is read after its 413. */
  readonly linger: LingerBounds;
}

interface Format {
  readonly base64: boolean;
  readonly resp2: boolean;
}

/** A request that passed the checks made before its body is read: method, token, output format. */
interface Admitted {
  readonly hasBody: boolean;
  readonly path: string;
  readonly query: string;
  readonly format: Format;
  readonly context: RunContext;
}

export class RequestHandler {
  private syncCounter = 0;
  readonly streams: EventStreams;
  private readonly headerNames: { encoding: string; format: string; syncToken: string };
  private readonly connections: ConnectionMemo;

  constructor(
    private readonly engine: Engine,
    private readonly runner: CommandRunner,
    tokens: TokenRegistry,
    private readonly options: HandlerOptions,
  ) {
    this.connections = new ConnectionMemo(tokens);
    this.streams = new EventStreams(options.maxStreamBufferBytes);
    const prefix = options.prefix.toLowerCase();
    this.headerNames = { encoding: `${prefix}-encoding`, format: `${prefix}-response-format`, syncToken: `${prefix}-sync-token` };
  }

  readonly handle = (request: IncomingMessage, response: ServerResponse): void => {
    let admitted: Admitted;
    try {
      admitted = this.admit(request);
    } catch (failure) {
      return this.fail(request, response, failure);
    }
    if (!admitted.hasBody) return this.answer(request, response, admitted, undefined);
    readBodyThen(
      request,
      this.options.maxBodyBytes,
      'ERR ',
      (body) => this.answer(request, response, admitted, body),
      (failure) => this.fail(request, response, failure),
    );
  };

  private answer(request: IncomingMessage, response: ServerResponse, admitted: Admitted, body: Buffer | undefined): void {
    this.route(request, response, admitted, body).catch((failure: unknown) => this.fail(request, response, failure));
  }

  private fail(request: IncomingMessage, response: ServerResponse, failure: unknown): void {
    const { status, message } = failureAnswer(failure, () => false, (internal) => `ERR internal error: ${internal instanceof Error ? internal.message : String(internal)}`);
    answerFailure(request, response, status, message, this.options.linger, (answerStatus, body) => this.send(request, response, answerStatus, 'application/json', body));
  }

  /** A new `<prefix>-sync-token` for every response (read-your-writes, as the real API does). */
  private nextSyncToken(): string {
    return String(++this.syncCounter);
  }

  private send(request: IncomingMessage, response: ServerResponse, status: number, contentType: string, body: string | Buffer): void {
    // One flat header list and no setHeader(): Node writes it out as is, with no merging.
    response.writeHead(status, ['content-type', contentType, 'content-length', String(Buffer.byteLength(body)), this.headerNames.syncToken, this.nextSyncToken()]);
    response.end(request.method === 'HEAD' ? undefined : body);
  }

  /** The checks made before a byte of the body is read, so a caller without a token never has one buffered. */
  private admit(request: IncomingMessage): Admitted {
    const method = request.method ?? 'GET';
    if (!ALLOWED_METHODS.has(method)) throw new HttpError(405, `ERR method ${method} is not allowed: use GET, HEAD, POST or PUT`);
    const url = request.url ?? '/';
    const queryStart = url.indexOf('?');
    const path = queryStart < 0 ? url : url.slice(0, queryStart);
    const query = queryStart < 0 ? '' : url.slice(queryStart + 1);
    const principal = this.connections.principal(request.socket, bearerToken(request) ?? queryToken(query));
    if (!principal) throw new HttpError(401, UNAUTHORIZED_TEXT);
    const format = this.format(request);
    const context: RunContext = { principal, address: this.connections.address(request.socket) };
    return { hasBody: BODY_METHODS.has(method), path, query, format, context };
  }

  private async route(request: IncomingMessage, response: ServerResponse, { hasBody, path, query, format, context }: Admitted, body: Buffer | undefined): Promise<void> {
    if (path === '/' || path === '') {
      if (!hasBody) throw new HttpError(400, 'ERR no command: use /<command>/<args> or POST a JSON array to /');
      return this.single(request, response, commandFromJsonBody(body), context, format);
    }
    const route = path.split('/')[1].toLowerCase();
    if (route === 'pipeline' || route === 'multi-exec') {
      if (path.length !== route.length + 1 && path !== `/${route}/`) throw new HttpError(404, `ERR unknown route ${path}: /${route} takes no path arguments`);
      if (!hasBody) throw new HttpError(405, `ERR /${route} takes a POST with a JSON array of commands`);
      const commands = commandsFromJsonBody(body);
      if (route === 'pipeline') {
        const replies = await this.runner.runEach(commands, context);
        return format.resp2
          ? this.send(request, response, 200, 'application/octet-stream', encodeResp2(replies))
          : this.send(request, response, 200, 'application/json', encodeEnvelopes(replies, format.base64));
      }
      const result = await this.runner.runTransaction(commands, context);
      if (!Array.isArray(result)) throw new HttpError(400, result.message);
      return this.send(request, response, 200, 'application/json', encodeEnvelopes(result, format.base64));
    }
    if (route === 'monitor' || route === 'subscribe' || route === 'psubscribe') {
      if (!hasBody) throw new HttpError(405, `ERR /${route} takes a POST with the header Accept: text/event-stream`);
      return this.stream(request, response, route, commandFromPath(path, '', undefined).slice(1), context);
    }
    return this.single(request, response, commandFromPath(path, query, body), context, format);
  }

  private async single(request: IncomingMessage, response: ServerResponse, command: Command, context: RunContext, format: Format): Promise<void> {
    const [reply] = await this.runner.runEach([command], context);
    const status = reply.kind === 'error' ? 400 : 200;
    if (format.resp2) this.send(request, response, status, 'application/octet-stream', encodeResp2([reply]));
    else this.send(request, response, status, 'application/json', encodeEnvelope(reply, format.base64));
  }

  private async stream(request: IncomingMessage, response: ServerResponse, route: string, targets: string[], context: RunContext): Promise<void> {
    requireEventStream(request, `/${route}`);
    response.setHeader(this.headerNames.syncToken, this.nextSyncToken());
    const caller = callerOf(context);
    if (route === 'monitor') {
      if (context.principal.readOnly) throw new HttpError(400, noPermissionText('monitor'));
      await this.runner.reserveStream();
      return this.streams.monitor(response, this.engine, caller);
    }
    if (targets.length === 0) throw new HttpError(400, `ERR /${route} needs at least one ${route === 'subscribe' ? 'channel' : 'pattern'}: /${route}/<name>`);
    await this.runner.reserveStream();
    return this.streams.subscribe(response, this.engine, route === 'subscribe' ? 'channel' : 'pattern', targets, caller);
  }

  private format(request: IncomingMessage): Format {
    const encoding = String(request.headers[this.headerNames.encoding] ?? '').toLowerCase();
    const responseFormat = String(request.headers[this.headerNames.format] ?? 'json').toLowerCase();
    if (responseFormat !== 'json' && responseFormat !== 'resp2') {
      throw new HttpError(400, `ERR invalid ${this.options.prefix}-Response-Format '${responseFormat}': use json or resp2`);
    }
    const base64 = encoding === 'base64';
    if (base64 && responseFormat === 'resp2') {
      throw new HttpError(400, `ERR ${this.options.prefix}-Encoding base64 cannot be combined with ${this.options.prefix}-Response-Format resp2`);
    }
    return { base64, resp2: responseFormat === 'resp2' };
  }
}

function bearerToken(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : undefined;
}

function queryToken(query: string): string | undefined {
  for (const pair of query.split('&')) {
    if (pair.startsWith('_token=')) return safeDecode(pair.slice(7).replace(/\+/g, ' '));
  }
  return undefined;
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
