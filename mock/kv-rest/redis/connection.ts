// One TCP connection to redis-server: pipelined commands answered in order (a FIFO of pending
// batches), a timeout per batch after which the connection is dropped (its replies could no longer
// be matched), and a push mode for SUBSCRIBE/MONITOR streams. Everything sent during one turn of
// the event loop goes out in one write (shared/turn-batch.ts): under load, one system call for many
// HTTP requests.
import { connect, type Socket } from 'node:net';
import { TurnBatch } from '../../../shared/turn-batch';
import type { Reply } from '../reply';
import type { ResponseBudget } from '../response-budget';
import { encodeCommand, encodeCommands, RespParser } from './resp-codec';

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

/** No answer within the time limit. The connection is dropped; what it had sent may still run on Redis. */
export class RedisTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`redis-server did not answer within ${timeoutMs} ms (a command already sent may still have run)`);
  }
}

/** One send(): its replies so far, how many it waits for, and when it gives up. */
interface PendingBatch {
  readonly replies: Reply[];
  readonly expected: number;
  /** What these replies may hold (see response-budget.ts), spent by the parser as they arrive. */
  readonly budget: ResponseBudget | undefined;
  readonly deadline: number;
  resolve(replies: Reply[]): void;
  reject(failure: Error): void;
}

export class RedisConnection {
  private readonly socket: Socket;
  private readonly parser = new RespParser((completedInFeed) => this.budgetOfReply(completedInFeed));
  private readonly pending: PendingBatch[] = [];
  private readonly ready: Promise<void>;
  private pushListener: ((reply: Reply) => void) | undefined;
  private failure: Error | undefined;
  /** This turn's writes, sent together at its end. */
  private readonly writes = new TurnBatch<Buffer>((writes) => {
    if (!this.failure) this.socket.write(writes.length === 1 ? writes[0] : Buffer.concat(writes));
  });
  /** One timer watches the oldest batch's deadline (later batches have later deadlines). */
  private deadlineTimer: NodeJS.Timeout | undefined;

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

  /** Whether something sent during this turn is still waiting for the turn's one write. */
  get writingThisTurn(): boolean {
    return this.writes.waiting;
  }

  /**
   * Sends commands in one write; resolves with one reply per command, in order. A reply past
   * `budget` is the budget's refusal, read past without being kept.
   */
  send(commands: readonly (readonly string[])[], budget?: ResponseBudget): Promise<Reply[]> {
    if (this.failure) return Promise.reject(this.failure);
    if (commands.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.pending.push({ replies: [], expected: commands.length, budget, deadline: Date.now() + this.timeoutMs, resolve, reject });
      this.deadlineTimer ??= this.watch(this.timeoutMs);
      this.write(encodeCommands(commands));
    });
  }

  /** Turns the connection into a stream (SUBSCRIBE, MONITOR): every reply from now on goes to `listener`. */
  stream(command: readonly string[], listener: (reply: Reply) => void, onClose: () => void): void {
    this.pushListener = listener;
    this.socket.once('close', onClose);
    this.write(encodeCommand(command));
  }

  close(): void {
    this.fail(new Error('the connection to redis-server was closed'));
  }

  /** Holds writes until the end of this turn of the event loop, then sends them together. */
  private write(data: Buffer): void {
    this.writes.add(data);
  }

  /** The pending socket keeps the process alive, so the watch need not. */
  private watch(delayMs: number): NodeJS.Timeout {
    return setTimeout(this.checkDeadline, delayMs).unref();
  }

  private readonly checkDeadline = (): void => {
    this.deadlineTimer = undefined;
    const oldest = this.pending[0];
    if (!oldest) return;
    const left = oldest.deadline - Date.now();
    if (left <= 0) this.fail(new RedisTimeoutError(this.timeoutMs));
    else this.deadlineTimer = this.watch(left);
  };

  /** The budget of the batch the next reply belongs to, `completedInFeed` replies after those already handed over. */
  private budgetOfReply(completedInFeed: number): ResponseBudget | undefined {
    let ahead = completedInFeed;
    for (const batch of this.pending) {
      const missing = batch.expected - batch.replies.length;
      if (ahead < missing) return batch.budget;
      ahead -= missing;
    }
    return undefined;
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
      const batch = this.pending[0];
      if (!batch) {
        this.pushListener?.(reply);
        continue;
      }
      batch.replies.push(reply);
      if (batch.replies.length === batch.expected) {
        this.pending.shift();
        batch.resolve(batch.replies);
      }
    }
  }

  private fail(failure: Error): void {
    if (!this.failure) this.failure = failure;
    clearTimeout(this.deadlineTimer);
    this.deadlineTimer = undefined;
    for (const batch of this.pending.splice(0)) batch.reject(failure);
    this.socket.destroy();
  }
}
