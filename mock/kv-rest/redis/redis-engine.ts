// The `redis` engine: the Engine interface served by a real redis-server over TCP. Ordinary
// commands share a small pool of pipelined connections; each transaction, each ACL user's commands,
// each subscription and each MONITOR get a connection of their own, so nothing interleaves.
import { EngineRefusal, type Caller, type Engine, type ExecuteOptions, type PubSubListener, type Subscription } from '../engine';
import type { Reply } from '../reply';
import { parseRedisUrl, RedisConnection, type RedisAddress } from './connection';
import { ScriptRewrites } from './script-rewrites';

export interface RedisEngineOptions {
  /** `redis://[user:password@]host:port/db` (default redis://127.0.0.1:6379/0). */
  readonly url?: string;
  /** Longest wait for a connection or an answer before the request fails (default 2000 ms). */
  readonly commandTimeoutMs?: number;
  /** Connections shared by ordinary commands (default 4). */
  readonly poolSize?: number;
}

class RedisEngine implements Engine {
  readonly name = 'redis' as const;
  private readonly address: RedisAddress;
  private readonly timeoutMs: number;
  private readonly pool: Promise<RedisConnection>[] = [];
  private next = 0;
  private slotThisTurn: number | undefined;
  private readonly scripts = new ScriptRewrites();
  /** Passwords of ACL users seen by authenticate(), to open connections as them. */
  private readonly passwords = new Map<string, string>();
  private readonly userConnections = new Map<string, Promise<RedisConnection>>();
  private readonly streams = new Set<RedisConnection>();
  private closed = false;

  constructor(options: RedisEngineOptions, private readonly poolSize: number) {
    this.address = parseRedisUrl(options.url ?? 'redis://127.0.0.1:6379/0');
    this.timeoutMs = options.commandTimeoutMs ?? 2000;
  }

  async execute(commands: readonly (readonly string[])[], options: ExecuteOptions): Promise<Reply[]> {
    const translated = commands.map((command) => this.scripts.translate(command));
    const replies = options.transaction ? await this.transaction(translated, options.caller) : await (await this.connectionFor(options.caller)).send(translated);
    return replies.map((reply, index) => this.scripts.answer(commands[index], reply));
  }

  async authenticate(user: string, password: string): Promise<boolean> {
    let connection: RedisConnection;
    try {
      connection = await RedisConnection.open(this.address, this.timeoutMs, { user, password });
    } catch (failure) {
      if (/WRONGPASS|NOPERM|invalid/i.test((failure as Error).message)) return false;
      throw failure;
    }
    connection.close();
    this.passwords.set(user, password);
    this.userConnections.delete(user);
    return true;
  }

  subscribe(mode: 'channel' | 'pattern', targets: readonly string[], listener: PubSubListener, caller: Caller): Promise<Subscription> {
    return this.openStream(caller, [mode === 'channel' ? 'SUBSCRIBE' : 'PSUBSCRIBE', ...targets], (reply) => {
      if (reply.kind === 'array') listener(reply.items.map((item) => (item.kind === 'bulk' || item.kind === 'simple' ? item.value : item.kind === 'integer' ? String(item.value) : '')));
    });
  }

  monitor(onLine: (line: string) => void, caller: Caller): Promise<Subscription> {
    let confirmed = false;
    return this.openStream(caller, ['MONITOR'], (reply) => {
      if (reply.kind !== 'simple') return;
      if (confirmed) onLine(reply.value);
      confirmed = true;
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const connections = [...this.pool, ...this.userConnections.values()];
    this.pool.length = 0;
    this.userConnections.clear();
    for (const pending of connections) pending.then((connection) => connection.close(), () => undefined);
    for (const stream of this.streams) stream.close();
    this.streams.clear();
  }

  private open(caller: Caller): Promise<RedisConnection> {
    if (this.closed) return Promise.reject(new Error('the redis engine is closed'));
    if (caller.user === 'default') return RedisConnection.open(this.address, this.timeoutMs);
    const password = this.passwords.get(caller.user);
    if (password === undefined) return Promise.reject(new EngineRefusal(`NOPERM user ${caller.user} has no REST token on this server any more`));
    return RedisConnection.open(this.address, this.timeoutMs, { user: caller.user, password });
  }

  /**
   * A pooled connection for the database's own tokens; one per ACL user otherwise. Dead ones are
   * replaced. The pool turns once per turn of the event loop, not per request, so the requests
   * that arrive together share one connection and so one write (see connection.ts).
   */
  private async connectionFor(caller: Caller): Promise<RedisConnection> {
    if (caller.user !== 'default') return this.reuse(this.userConnections, caller.user, caller);
    if (this.slotThisTurn === undefined) {
      if (this.pool.length < this.poolSize) this.pool.push(this.open(caller));
      this.slotThisTurn = this.next++ % this.pool.length;
      setImmediate(() => (this.slotThisTurn = undefined));
    }
    const slot = this.slotThisTurn;
    const connection = await this.pool[slot].catch(() => undefined);
    if (connection?.usable) return connection;
    this.pool[slot] = this.open(caller);
    return this.pool[slot];
  }

  private async reuse(cache: Map<string, Promise<RedisConnection>>, key: string, caller: Caller): Promise<RedisConnection> {
    const existing = await cache.get(key)?.catch(() => undefined);
    if (existing?.usable) return existing;
    const opened = this.open(caller);
    cache.set(key, opened);
    return opened;
  }

  /** MULTI ... EXEC on a connection no other request uses, answered one reply per command. */
  private async transaction(commands: readonly (readonly string[])[], caller: Caller): Promise<Reply[]> {
    const connection = await this.open(caller);
    try {
      const replies = await connection.send([['MULTI'], ...commands, ['EXEC']]);
      const exec = replies[replies.length - 1];
      if (exec.kind === 'array') return [...exec.items];
      // EXECABORT (a command refused while queueing): every slot shows why.
      return commands.map((_, index) => (replies[index + 1].kind === 'error' ? replies[index + 1] : exec));
    } finally {
      connection.close();
    }
  }

  private async openStream(caller: Caller, command: readonly string[], onReply: (reply: Reply) => void): Promise<Subscription> {
    const connection = await this.open(caller);
    this.streams.add(connection);
    await new Promise<void>((resolve, reject) => {
      let first = true;
      connection.stream(command, (reply) => {
        if (first) {
          first = false;
          if (reply.kind === 'error') {
            reject(new EngineRefusal(reply.message));
            return;
          }
          resolve();
        }
        onReply(reply);
      }, () => {
        this.streams.delete(connection);
        if (first) reject(new Error('redis-server closed the connection before the stream started'));
      });
    });
    return {
      close: async () => {
        this.streams.delete(connection);
        connection.close();
      },
    };
  }
}

export function createRedisEngine(options: RedisEngineOptions = {}): Engine {
  return new RedisEngine(options, Math.max(1, options.poolSize ?? 4));
}
