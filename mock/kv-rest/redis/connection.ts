// One TCP connection to redis-server: pipelined commands answered in order (a FIFO of pending
// batches), a timeout per batch after which the connection is dropped (its replies could no longer
// be matched), and a push mode for SUBSCRIBE/MONITOR streams. Everything sent during one turn of
// the event loop goes out in one write (shared/turn-batch.ts): under load, one system call for many
// HTTP requests. Behind Sentinel, a connection finds the primary when it opens (sentinel.ts) and
// closes itself on a READONLY reply, so the engine's reopening follows a failover.
import { connect, type Socket } from 'node:net';
import { Deadline } from '../../../shared/deadline';
import { TurnBatch } from '../../../shared/turn-batch';
import type { Reply } from '../reply';
import type { ResponseBudget } from '../response-budget';
import { encodeCommand, encodeCommands, RespParser } from './resp-codec';
import { primaryOf, saysReplica, type SentinelSet } from './sentinel';
import { describeAddress, parseStoreUrl, type HostAndPort } from '../../../shared/store-address';

export interface RedisAddress {
  /** The node; for a Sentinel-managed primary, the first sentinel, and open() asks the sentinels for the node. */
  readonly host: string;
  readonly port: number;
  readonly db: number;
  readonly user?: string;
  readonly password?: string;
  /** Set for `redis+sentinel://` URLs: the primary is found through these sentinels (sentinel.ts). */
  readonly sentinel?: SentinelSet;
}

/**
 * `redis://[user:password@]host:port/db`, or a Sentinel-managed primary:
 * `redis+sentinel://[user:password@]host:port,host:port/<master name>[/db]` (the plugin's own form,
 * shared/store-address.ts). TLS and Redis Cluster URLs are refused: this server fronts one primary over TCP.
 */
export function parseRedisUrl(url: string): RedisAddress {
  const parsed = parseStoreUrl(url);
  if (!parsed.ok) throw new Error(`the Redis URL ${parsed.error}`);
  const { address } = parsed;
  if (address.kind !== 'redis' || address.tls || address.topology === 'cluster') {
    throw new Error(`the Redis URL must be redis://[user:password@]host:port/db or redis+sentinel://host:port,host:port/<master name>[/db] (no TLS, no cluster), got ${address.kind === 'rest' ? 'a key-value REST url' : describeAddress(address)}`);
  }
  const [first] = address.hosts;
  const sentinel: SentinelSet | undefined =
    address.topology === 'sentinel' ? { sentinels: address.hosts, masterName: address.masterName!, user: address.sentinelUsername, password: address.sentinelPassword } : undefined;
  return { host: first.host, port: first.port, db: address.db, user: address.username, password: address.password, ...(sentinel ? { sentinel } : {}) };
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
  /** performance.now() at which it is due. */
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
  private readonly writes = new TurnBatch<string>((writes) => {
    if (!this.failure) this.socket.write(writes.length === 1 ? writes[0] : writes.join(''), 'latin1');
  });
  /** One timer watches the oldest batch's deadline (later batches have later deadlines). */
  private oldestDeadline: Deadline | undefined;

  /** `host:port` of the node this connection reached. */
  readonly peer: string;

  /** `followsFailover`: opened through the sentinels, so a READONLY reply (the node was demoted) drops the connection. */
  private constructor(address: HostAndPort, private readonly timeoutMs: number, private readonly followsFailover = false) {
    this.peer = `${address.host}:${address.port}`;
    this.socket = connect({ host: address.host, port: address.port });
    this.socket.setNoDelay(true);
    this.ready = new Promise((resolve, reject) => {
      // Judged after the connection's completion is read (shared/deadline.ts), as replies are: a
      // connection made in time while the loop was held is no failure.
      const connecting = new Deadline(() => {
        if (this.socket.connecting) this.fail(new Error(`no connection to redis-server at ${address.host}:${address.port} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.socket.once('connect', () => {
        connecting.cancel();
        resolve();
      });
      this.socket.once('close', () => {
        connecting.cancel();
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
   * For a Sentinel-managed primary, asks the sentinels for the node first and checks its ROLE.
   */
  static async open(address: RedisAddress, timeoutMs: number, asUser?: { user: string; password: string }): Promise<RedisConnection> {
    const node = address.sentinel ? await primaryOf(address.sentinel, (sentinel, commands) => RedisConnection.askOnce(sentinel, commands, timeoutMs)) : address;
    const connection = new RedisConnection(node, timeoutMs, address.sentinel !== undefined);
    await connection.ready;
    const setup: string[][] = [];
    if (address.password !== undefined) setup.push(address.user ? ['AUTH', address.user, address.password] : ['AUTH', address.password]);
    if (address.db !== 0) setup.push(['SELECT', String(address.db)]);
    // Before an ACL user's AUTH, who may not run ROLE.
    if (address.sentinel) setup.push(['ROLE']);
    if (asUser) setup.push(['AUTH', asUser.user, asUser.password]);
    if (setup.length > 0) {
      const replies = await connection.send(setup);
      const refused = replies.find((reply) => reply.kind === 'error');
      const role = address.sentinel ? replies[setup.findIndex(([name]) => name === 'ROLE')] : undefined;
      const notPrimary = role !== undefined && !(role.kind === 'array' && role.items[0]?.kind === 'bulk' && role.items[0].value === 'master');
      if (refused?.kind === 'error' || notPrimary) {
        connection.close();
        throw new Error(refused?.kind === 'error' ? refused.message : `redis-server at ${connection.peer}, named primary of ${address.sentinel!.masterName} by a sentinel, is not a primary (yet)`);
      }
    }
    return connection;
  }

  /** Commands on a connection of their own to `node`, closed after the answers. */
  private static async askOnce(node: HostAndPort, commands: readonly (readonly string[])[], timeoutMs: number): Promise<Reply[]> {
    const connection = new RedisConnection(node, timeoutMs);
    try {
      await connection.ready;
      return await connection.send(commands);
    } finally {
      connection.close();
    }
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
      this.pending.push({ replies: [], expected: commands.length, budget, deadline: performance.now() + this.timeoutMs, resolve, reject });
      this.oldestDeadline ??= new Deadline(this.judgeDeadline, this.timeoutMs);
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
  private write(data: string): void {
    this.writes.add(data);
  }

  /** Fails the connection when the oldest batch, unanswered, was due by `firedAt` (shared/deadline.ts); watches it otherwise. */
  private readonly judgeDeadline = (firedAt: number): void => {
    this.oldestDeadline = undefined;
    const oldest = this.pending[0];
    if (!oldest) return;
    if (oldest.deadline <= firedAt) this.fail(new RedisTimeoutError(this.timeoutMs));
    else this.oldestDeadline = new Deadline(this.judgeDeadline, Math.max(1, oldest.deadline - performance.now()));
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
        if (this.followsFailover && batch.replies.some(saysReplica)) this.fail(new Error(`redis-server at ${this.peer} is a replica now (READONLY): the next connection asks the sentinels for the primary`));
      }
    }
  }

  private fail(failure: Error): void {
    if (!this.failure) this.failure = failure;
    this.oldestDeadline?.cancel();
    this.oldestDeadline = undefined;
    for (const batch of this.pending.splice(0)) batch.reject(failure);
    this.socket.destroy();
  }
}
