// The plugin's HTTP/1.1 client for the key-value REST store: a pool of keep-alive connections
// (plain TCP or TLS), one request in flight per connection, each call bounded by a deadline that
// covers waiting for a connection, connecting and the answer, and that destroys what it waits on.
// The calls in flight share one deadline timer, armed for the oldest (../oldest-deadline-timer.ts),
// where each call armed and cleared a timer of its own: at moderate load (a turn of the event loop
// holds one request, issue 36) that was one timer per request.
// Written here rather than taken from node:http or undici because it sits on every request's path:
// a store round trip costs this client about 9 us of CPU, node:http's Agent about 20 us and
// undici's Pool about 18 us (same machine, same store, `npm run bench` measures the whole plugin).
import net from 'node:net';
import tls from 'node:tls';
import { failureMessage } from '../../failure-message';
import { OldestDeadlineTimer } from '../oldest-deadline-timer';
import { refusedCertificateCode, tlsOptionsFor } from '../tls-trust';
import { Http1ResponseParser, type Http1Response } from './http1-response-parser';

/** The store could not be used: no answer in time, a refused or broken connection, an answer that is not one. */
export class StoreUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}

/**
 * Node refused the store's TLS certificate (unknown CA, expired, another host's): a mistake of
 * configuration, which the boot check reports with what to do (../store-check.ts); each call still
 * follows the failure mode, as for any store failure.
 */
export class StoreCertificateError extends StoreUnavailableError {
  constructor(failure: Error, code: string) {
    super(`Node refused the key-value store's TLS certificate: ${failure.message} (${code})`, { cause: failure });
    this.name = 'StoreCertificateError';
  }
}

/** A socket's failure as the store failure it is. */
function connectionFailureOf(failure: Error): StoreUnavailableError {
  const code = refusedCertificateCode(failure);
  return code === undefined ? new StoreUnavailableError(failure.message, { cause: failure }) : new StoreCertificateError(failure, code);
}

export interface StoreConnectionOptions {
  /** Connections open at once at most; further calls wait for one. */
  readonly maxConnections: number;
  /** An idle connection older than this is not reused (servers close idle ones: Node's after 5 s). */
  readonly idleReuseMs: number;
  /**
   * The most bytes one answer may have after its head; a larger one fails its call as a store
   * failure (StoreAnswerTooLargeError's sentence) and its connection is dropped.
   */
  readonly maxAnswerBytes: number;
  /**
   * For an `https:` store, the TLS options of its connections, made once per store by
   * ../tls-trust.ts's tlsOptionsFor (a private CA's in one secure context); Node's own CAs without it.
   */
  readonly tls?: tls.ConnectionOptions;
}

interface Call {
  readonly request: string;
  readonly resolve: (response: Http1Response) => void;
  readonly reject: (failure: Error) => void;
  connection?: Connection;
  settled: boolean;
}

interface Connection {
  readonly socket: net.Socket;
  readonly parser: Http1ResponseParser;
  call?: Call;
  idleSince: number;
}

export class StoreConnections {
  private readonly idle: Connection[] = [];
  private readonly waiting: Call[] = [];
  private open = 0;
  private closed = false;
  private readonly deadlines: OldestDeadlineTimer<Call>;
  /** For an https store, what every connection to it shares: one secure context (../tls-trust.ts). */
  private readonly tlsOptions: tls.ConnectionOptions | undefined;

  constructor(
    private readonly endpoint: URL,
    private readonly timeoutMs: number,
    private readonly options: StoreConnectionOptions,
  ) {
    this.deadlines = new OldestDeadlineTimer(timeoutMs, (call) => call.settled, (call) => this.expire(call));
    this.tlsOptions = endpoint.protocol === 'https:' ? (options.tls ?? tlsOptionsFor({})) : undefined;
  }

  /** Sends one complete HTTP/1.1 request (head and body) and resolves with its response. */
  send(request: string): Promise<Http1Response> {
    if (this.closed) return Promise.reject(new StoreUnavailableError('the store client was closed'));
    return new Promise((resolve, reject) => {
      const call: Call = { request, resolve, reject, settled: false };
      this.deadlines.watch(call);
      const connection = this.takeIdle();
      if (connection) this.start(connection, call);
      else if (this.open < this.options.maxConnections) this.start(this.connect(), call);
      else this.waiting.push(call);
    });
  }

  /** Closes every connection and fails the calls still waiting. */
  close(): void {
    this.closed = true;
    for (const call of this.waiting.splice(0)) this.settle(call, new StoreUnavailableError('the store client was closed'));
    for (const connection of this.idle.splice(0)) connection.socket.destroy();
    // The calls still on a connection keep their deadline: a store that does not answer fails them in time.
  }

  private takeIdle(): Connection | undefined {
    const now = Date.now();
    for (let connection = this.idle.pop(); connection; connection = this.idle.pop()) {
      if (now - connection.idleSince < this.options.idleReuseMs) return connection;
      connection.socket.destroy();
    }
    return undefined;
  }

  private connect(): Connection {
    const host = this.endpoint.hostname.replace(/^\[(.*)\]$/, '$1');
    const secure = this.endpoint.protocol === 'https:';
    const port = Number(this.endpoint.port) || (secure ? 443 : 80);
    const socket = secure
      ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host, ALPNProtocols: ['http/1.1'], ...this.tlsOptions })
      : net.connect({ host, port });
    socket.setNoDelay(true);
    const connection: Connection = { socket, parser: new Http1ResponseParser(this.options.maxAnswerBytes), idleSince: 0 };
    this.open++;
    socket.on('data', (chunk: Buffer) => this.received(connection, chunk));
    socket.on('end', () => this.ended(connection));
    socket.on('error', (failure) => this.failed(connection, connectionFailureOf(failure)));
    socket.on('close', () => this.dropped(connection));
    return connection;
  }

  /**
   * A connection with a call in flight keeps the process alive until the answer (the shared deadline
   * timer is unref'd); an idle one does not (release()). A waiting call has no connection, but every
   * connection is then busy, or a new one is being opened for it.
   */
  private start(connection: Connection, call: Call): void {
    connection.call = call;
    call.connection = connection;
    connection.socket.ref();
    connection.socket.write(call.request);
  }

  private received(connection: Connection, chunk: Buffer): void {
    const call = connection.call;
    let response: Http1Response | undefined;
    try {
      response = connection.parser.push(chunk);
    } catch (failure) {
      return this.failed(connection, new StoreUnavailableError(failureMessage(failure), { cause: failure }));
    }
    if (!response) return;
    if (!call) return this.failed(connection, new StoreUnavailableError('the key-value store answered a request it was not sent'));
    connection.call = undefined;
    call.connection = undefined;
    this.settle(call, undefined, response);
    if (response.keepAlive && !this.closed) this.release(connection);
    else connection.socket.destroy();
  }

  private ended(connection: Connection): void {
    const call = connection.call;
    // An idle connection the server ended must not be handed out before its 'close' arrives.
    if (!call) return void connection.socket.destroy();
    try {
      const response = connection.parser.end();
      connection.call = undefined;
      this.settle(call, undefined, response);
    } catch (failure) {
      this.failed(connection, new StoreUnavailableError(failureMessage(failure), { cause: failure }));
    }
  }

  /** A connection is done with its call: the next waiting call takes it, else it waits idle. */
  private release(connection: Connection): void {
    const next = this.waiting.shift();
    if (next) return this.start(connection, next);
    connection.idleSince = Date.now();
    connection.socket.unref();
    this.idle.push(connection);
  }

  private failed(connection: Connection, failure: Error): void {
    const call = connection.call;
    connection.call = undefined;
    if (call) this.settle(call, failure);
    connection.socket.destroy();
  }

  private dropped(connection: Connection): void {
    this.open--;
    const index = this.idle.indexOf(connection);
    if (index >= 0) this.idle.splice(index, 1);
    if (connection.call) this.failed(connection, new StoreUnavailableError('the key-value store closed the connection'));
    // A freed slot lets a waiting call open a connection of its own.
    const next = this.closed ? undefined : this.waiting.shift();
    if (next) this.start(this.connect(), next);
  }

  private expire(call: Call): void {
    const failure = new StoreUnavailableError(`no answer from the key-value store within ${this.timeoutMs} ms`);
    const index = this.waiting.indexOf(call);
    if (index >= 0) this.waiting.splice(index, 1);
    // The connection is in an unknown state (half an answer, perhaps): it cannot be reused.
    if (call.connection) this.failed(call.connection, failure);
    else this.settle(call, failure);
  }

  private settle(call: Call, failure: Error | undefined, response?: Http1Response): void {
    call.settled = true;
    if (failure) call.reject(failure);
    else call.resolve(response!);
  }
}
