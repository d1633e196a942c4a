// One TCP connection to redis-server: pipelined commands answered in order (a FIFO of pending
// replies), a timeout per batch after which the connection is dropped (its replies could no longer
// be matched), and a push mode for SUBSCRIBE/MONITOR streams.
import { connect, type Socket } from 'node:net';
import type { Reply } from '../reply';
import { encodeCommand, RespParser } from './resp-codec';

export interface RedisAddress {
  readonly host: string;
  readonly port: number;
  readonly db: number;
  readonly user?: string;
  readonly password?: string;
}

/** `redis://[user:password@]host:port/db` */
export function parseRedisUrl(url: string): RedisAddress {
  const parsed = new URL(url);
  if (parsed.protocol !== 'redis:') throw new Error(`Redis URL must start with redis://, got ${url}`);
  const db = parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : 0;
  if (!Number.isInteger(db) || db < 0) throw new Error(`Redis URL has a bad database number: ${url}`);
  return {
    host: parsed.hostname || '127.0.0.1',
    port: Number(parsed.port || 6379),
    db,
    user: parsed.username ? decodeURIComponent(parsed.username) : undefined,
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
  };
}

interface Pending {
  resolve(reply: Reply): void;
  reject(failure: Error): void;
}

export class RedisConnection {
  private readonly socket: Socket;
  private readonly parser = new RespParser();
  private readonly pending: Pending[] = [];
  private readonly ready: Promise<void>;
  private pushListener: ((reply: Reply) => void) | undefined;
  private failure: Error | undefined;

  private constructor(address: RedisAddress, private readonly timeoutMs: number) {
    this.socket = connect({ host: address.host, port: address.port });
    this.socket.setNoDelay(true);
    this.ready = new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.fail(new Error(`no connection to redis-server at ${address.host}:${address.port} within ${timeoutMs} ms`)), timeoutMs);
      this.socket.once('connect', () => {
        clearTimeout(timer);
        resolve();
      });
      this.socket.once('close', () => {
        clearTimeout(timer);
        reject(this.failure ?? new Error('connection closed'));
      });
    });
    this.ready.catch(() => undefined);
    this.socket.on('data', (chunk) => this.receive(chunk));
    this.socket.on('error', (failure) => this.fail(new Error(`redis-server at ${address.host}:${address.port}: ${failure.message}`)));
    this.socket.on('close', () => this.fail(this.failure ?? new Error('the connection to redis-server closed')));
  }

  /**
   * Connects, authenticates with the URL's credentials, selects the database and then, for an ACL
   * user, authenticates as that user (who may lack the right to SELECT); rejects with Redis's text.
   */
  static async open(address: RedisAddress, timeoutMs: number, asUser?: { user: string; password: string }): Promise<RedisConnection> {
    const connection = new RedisConnection(address, timeoutMs);
    await connection.ready;
    const setup: string[][] = [];
    if (address.password !== undefined) setup.push(address.user ? ['AUTH', address.user, address.password] : ['AUTH', address.password]);
    if (address.db !== 0) setup.push(['SELECT', String(address.db)]);
    if (asUser) setup.push(['AUTH', asUser.user, asUser.password]);
    if (setup.length > 0) {
      const replies = await connection.send(setup);
      const refused = replies.find((reply) => reply.kind === 'error');
      if (refused && refused.kind === 'error') {
        connection.close();
        throw new Error(refused.message);
      }
    }
    return connection;
  }

  get usable(): boolean {
    return this.failure === undefined;
  }

  /** Sends commands in one write; resolves with one reply per command, in order. */
  send(commands: readonly (readonly string[])[]): Promise<Reply[]> {
    if (this.failure) return Promise.reject(this.failure);
    const replies = commands.map(() => new Promise<Reply>((resolve, reject) => this.pending.push({ resolve, reject })));
    this.socket.write(Buffer.concat(commands.map(encodeCommand)));
    const all = Promise.all(replies);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const failure = new Error(`redis-server did not answer within ${this.timeoutMs} ms`);
        this.fail(failure);
        reject(failure);
      }, this.timeoutMs);
    });
    return Promise.race([all, timeout]).finally(() => clearTimeout(timer));
  }

  /** Turns the connection into a stream (SUBSCRIBE, MONITOR): every reply from now on goes to `listener`. */
  stream(command: readonly string[], listener: (reply: Reply) => void, onClose: () => void): void {
    this.pushListener = listener;
    this.socket.once('close', onClose);
    this.socket.write(encodeCommand(command));
  }

  close(): void {
    this.fail(new Error('the connection to redis-server was closed'));
  }

  private receive(chunk: Buffer): void {
    let replies: Reply[];
    try {
      replies = this.parser.feed(chunk);
    } catch (failure) {
      this.fail(failure as Error);
      return;
    }
    for (const reply of replies) {
      const waiter = this.pending.shift();
      if (waiter) waiter.resolve(reply);
      else this.pushListener?.(reply);
    }
  }

  private fail(failure: Error): void {
    if (!this.failure) this.failure = failure;
    for (const waiter of this.pending.splice(0)) waiter.reject(failure);
    this.socket.destroy();
  }
}
