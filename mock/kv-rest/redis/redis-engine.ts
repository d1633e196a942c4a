// The `redis` engine: the Engine interface served by a real redis-server over TCP. Ordinary
// commands and transactions (MULTI ... EXEC in one write) share a small pool of pipelined
// connections; each ACL user's commands, each subscription and each MONITOR get a connection of
// their own.
// The database's own tokens reach Redis as the engine's own users (gateway-user.ts), which Redis
// itself confines to what each token may run; the Redis URL's user only administers: it creates
// those users, keeps the engine's own state in its private database (gateway-store.ts) and ends
// overrunning scripts (script-killer.ts). Nothing that decides an answer is kept per process, so
// any number of REST servers with the same configuration in front of one Redis answer as one.
import { Deadline } from '../../../shared/deadline';
import { EngineRefusal, type Caller, type DailyCount, type Engine, type ExecuteOptions, type PubSubListener, type Subscription } from '../engine';
import { notAvailableText } from '../command-table';
import { bulk, error, type ErrorReply, type Reply } from '../reply';
import type { ResolvedCommand } from '../resolved-command';
import type { ResponseBudget } from '../response-budget';
import { redisEngineRefusalOf } from '../rest-policy';
import { parseRedisUrl, RedisConnection, RedisTimeoutError, type RedisAddress } from './connection';
import { aclTargets, confineAclCommand, confinementFor, containersToDescribe, GATEWAY_USER, gatewayPasswordFor, READER_USER, readCommandNames } from './gateway-user';
import { confineToDatabase } from './database-confinement';
import { GatewayStore } from './gateway-store';
import { streamMayCarry } from './keyspace-events';
import { refusalToServe } from './server-check';
import { ScriptKiller } from './script-killer';
import { runsScript, ScriptRewrites } from './script-rewrites';
import { redisVersionOf, ServerCommands } from './server-commands';

export interface RedisEngineOptions {
  /** `redis://[user:password@]host:port/db`, or `redis+sentinel://host:port,host:port/<master name>[/db]` for a Sentinel-managed primary (default redis://127.0.0.1:6379/0). */
  readonly url?: string;
  /** Longest wait for a connection or an answer before the request fails (default 2000 ms). */
  readonly commandTimeoutMs?: number;
  /** Connections shared by ordinary commands (default 4). */
  readonly poolSize?: number;
  /** The database where the engine keeps its own state (the daily count, script texts); never the served one (default 15). */
  readonly privateDb?: number;
  /** Configuration all REST servers of one deployment share (a server passes its Standard token): names the daily count. */
  readonly sharedSecret?: string;
}

/** What the options left out mean; the CLI's help text shows these. */
export const REDIS_ENGINE_DEFAULTS = { url: 'redis://127.0.0.1:6379/0', commandTimeoutMs: 2000, privateDb: 15 } as const;

interface Gateway {
  /** Appended to REST callers' ACL SETUSER rules. */
  readonly refusals: readonly string[];
  /** What the server has, to name a command it lacks. */
  readonly serverCommands: ServerCommands;
}

const NO_USERS: ReadonlySet<string> = new Set();

const engineClosed = (): Error => new Error('the redis engine is closed');

/** A slot of a pool: the connection while it opens, then the open connection itself. */
type PoolSlot = Promise<RedisConnection> | RedisConnection;

class RedisEngine implements Engine {
  readonly name = 'redis' as const;
  private readonly address: RedisAddress;
  private readonly timeoutMs: number;
  /** Pooled connections of the Standard token and of the Read Only token. */
  private readonly pools = { standard: [] as PoolSlot[], readOnly: [] as PoolSlot[] };
  private next = 0;
  /** Each pool's connection handed out last: the turn's requests keep it while its turn's write waits. */
  private readonly lastHandedOut = { standard: undefined as RedisConnection | undefined, readOnly: undefined as RedisConnection | undefined };
  private readonly store: GatewayStore;
  private readonly scripts: ScriptRewrites;
  private readonly killer: ScriptKiller;
  /** The password of both of the engine's users, derived from the URL's credentials (gateway-user.ts). */
  private readonly gatewayPassword: string;
  /** Users REST callers may not change: the engine's own and the user it administers Redis as. */
  private readonly engineUsers: ReadonlySet<string>;
  private gateway: Promise<Gateway> | undefined;
  /** The gateway once ready: a request then waits for nothing before its commands go out. */
  private readyGateway: Gateway | undefined;
  private readonly userConnections = new Map<string, Promise<RedisConnection>>();
  private readonly streams = new Set<RedisConnection>();
  private closed = false;

  constructor(options: RedisEngineOptions, private readonly poolSize: number) {
    this.address = parseRedisUrl(options.url ?? REDIS_ENGINE_DEFAULTS.url);
    this.timeoutMs = options.commandTimeoutMs ?? REDIS_ENGINE_DEFAULTS.commandTimeoutMs;
    const privateDb = options.privateDb ?? REDIS_ENGINE_DEFAULTS.privateDb;
    if (privateDb === this.address.db) throw new Error(`the redis engine's private database (${privateDb}) must not be the database it serves: choose another`);
    this.store = new GatewayStore(this.address, privateDb, options.sharedSecret, this.timeoutMs);
    this.scripts = new ScriptRewrites(this.store);
    this.killer = new ScriptKiller(this.address);
    this.gatewayPassword = gatewayPasswordFor(this.address);
    this.engineUsers = new Set([GATEWAY_USER, READER_USER, this.address.user ?? 'default']);
  }

  async ready(): Promise<void> {
    try {
      await this.gatewayReady();
    } catch (failure) {
      throw new Error(`the redis engine cannot serve: ${(failure as Error).message}`);
    }
  }

  async countToday(count: number, limit: number): Promise<DailyCount> {
    return this.store.countToday(count, limit);
  }

  async execute(commands: readonly ResolvedCommand[], options: ExecuteOptions): Promise<Reply[]> {
    if (this.closed) throw engineClosed();
    const { refusals, serverCommands } = this.readyGateway ?? (await this.gatewayReady());
    // Only ACL SETUSER and DELUSER name users: other requests read nothing from the private database.
    const targets = commands.flatMap(aclTargets);
    const foreignUsers = targets.length === 0 ? NO_USERS : await this.store.foreignUsers(targets);
    // Refusals take their slots now, Redis's replies the others after the send.
    const replies: Reply[] = new Array(commands.length);
    const sending: ResolvedCommand[] = [];
    const sentFrom: number[] = [];
    for (let index = 0; index < commands.length; index++) {
      const planned = this.plan(commands[index], refusals, serverCommands, foreignUsers);
      if (!('kind' in planned)) {
        sending.push(planned);
        sentFrom.push(index);
      } else if (options.transaction) throw new EngineRefusal(planned.message);
      else replies[index] = planned;
    }
    const preparing = this.scripts.prepare(sending);
    if (preparing) await preparing;
    const toSend = sending.map((command) => this.scripts.translate(command));
    let sent: Reply[];
    try {
      if (options.transaction) sent = await this.transaction(toSend, options.caller, options.budget);
      else {
        const connection = this.connectionFor(options.caller);
        sent = await (connection instanceof RedisConnection ? connection : await connection).send(toSend, options.budget);
      }
    } catch (failure) {
      if (failure instanceof RedisTimeoutError && commands.some(runsScript)) this.killer.kill();
      throw failure;
    }
    let flush = sending.length - 1;
    while (flush >= 0 && !(sending[flush].spec.name === 'script|flush' && sent[flush]?.kind === 'simple')) flush--;
    if (flush >= 0) await this.scripts.flushed(sending.slice(flush + 1));
    if (targets.length > 0) await this.recordUsers(sending, sent);
    for (let position = 0; position < sentFrom.length; position++) {
      const index = sentFrom[position];
      const reply = sent[position];
      if (ScriptKiller.saysBusy(reply)) this.killer.kill();
      replies[index] = this.answer(commands[index], reply, options.caller);
    }
    return replies;
  }

  /**
   * The command as it goes to Redis, or the error that refuses it here. Each step rewrites the
   * arguments (ACL rules appended, FLUSHALL as FLUSHDB) of the same command.
   */
  private plan(command: ResolvedCommand, refusals: readonly string[], serverCommands: ServerCommands, foreignUsers: ReadonlySet<string>): ResolvedCommand | ErrorReply {
    const { args, spec } = command;
    const lacking = serverCommands.lacking(spec.name);
    if (lacking) return lacking;
    const refusedHere = redisEngineRefusalOf(spec.name);
    if (refusedHere !== undefined) return error(notAvailableText(args[0], refusedHere));
    const confined = confineAclCommand(command, refusals, this.engineUsers, foreignUsers);
    if ('kind' in confined) return confined;
    const inDatabase = confineToDatabase(confined === args ? command : { args: confined, spec }, this.address.db);
    if ('kind' in inDatabase) return inDatabase;
    return inDatabase === args ? command : { args: inDatabase, spec };
  }

  /** Files the users that ACL SETUSER made or changed, and forgets those ACL DELUSER deleted, as Redis answered them. */
  private async recordUsers(sent: readonly ResolvedCommand[], replies: readonly Reply[]): Promise<void> {
    const created: string[] = [];
    const deleted: string[] = [];
    sent.forEach((command, index) => {
      if (replies[index]?.kind === 'error') return;
      (command.spec.name === 'acl|setuser' ? created : deleted).push(...aclTargets(command));
    });
    await this.store.recordUsers(created, deleted);
  }

  /** Whether `user`'s password is `password`, for minting its token: only users created through the REST API get one (trust round 4, finding 6). */
  async authenticate(user: string, password: string): Promise<boolean> {
    if (this.engineUsers.has(user) || (await this.store.foreignUsers([user])).size > 0) return false;
    let connection: RedisConnection;
    try {
      connection = await RedisConnection.open(this.address, this.timeoutMs, { user, password });
    } catch (failure) {
      if (/WRONGPASS|NOPERM|invalid/i.test((failure as Error).message)) return false;
      throw failure;
    }
    connection.close();
    this.userConnections.delete(user);
    return true;
  }

  subscribe(mode: 'channel' | 'pattern', targets: readonly string[], listener: PubSubListener, caller: Caller): Promise<Subscription> {
    return this.openStream(caller, [mode === 'channel' ? 'SUBSCRIBE' : 'PSUBSCRIBE', ...targets], (reply) => {
      if (reply.kind !== 'array') return;
      const fields = reply.items.map((item) => (item.kind === 'bulk' || item.kind === 'simple' ? item.value : item.kind === 'integer' ? String(item.value) : ''));
      if (streamMayCarry(fields, this.address.db, caller.readOnly === true)) listener(fields);
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
    const connections = [...this.pools.standard, ...this.pools.readOnly, ...this.userConnections.values()];
    this.pools.standard.length = 0;
    this.pools.readOnly.length = 0;
    this.userConnections.clear();
    // Pools fill by slot, so they may have holes.
    for (const held of connections) if (held) void Promise.resolve(held).then((connection) => connection.close(), () => undefined);
    for (const stream of this.streams) stream.close();
    this.streams.clear();
    this.killer.close();
    this.store.close();
  }

  /** Redis's reply as the REST caller sees it: scripts under their own SHA, and `default` for ACL WHOAMI of the database's tokens. */
  private answer(command: ResolvedCommand, reply: Reply, caller: Caller): Reply {
    const answered = this.scripts.answer(command, reply);
    const whoami = command.spec.name === 'acl|whoami';
    return whoami && caller.user === 'default' && answered.kind === 'bulk' && this.engineUsers.has(answered.value) ? bulk('default') : answered;
  }

  /**
   * The engine's users, created (or updated) once with the URL's user, after checking that this
   * Redis is one the engine can serve (server-check.ts). Their password is derived from the URL's
   * credentials, so every REST server of that Redis and every restart set the same one: setting it
   * again changes nothing and none is left behind.
   */
  private gatewayReady(): Promise<Gateway> {
    if (this.closed) return Promise.reject(engineClosed());
    if (this.gateway) return this.gateway;
    const creating: Promise<Gateway> = this.createGateway().then(
      (gateway) => (this.readyGateway = gateway),
      (failure: unknown) => {
        // Only its own: a newer creation (after a WRONGPASS) may already be under way.
        if (this.gateway === creating) this.gateway = undefined;
        throw failure;
      },
    );
    this.gateway = creating;
    return creating;
  }

  private async createGateway(): Promise<Gateway> {
    const admin = await RedisConnection.open(this.address, this.timeoutMs);
    try {
      const [list, info, server, cluster] = await admin.send([['COMMAND', 'LIST'], ['COMMAND', 'INFO', ...containersToDescribe()], ['INFO', 'server'], ['INFO', 'cluster']]);
      const refusal = refusalToServe(server, cluster);
      if (refusal !== undefined) throw new Error(`redis-server at ${admin.peer} ${refusal}`);
      const commands = readCommandNames(list, info);
      const standard = confinementFor(commands, this.gatewayPassword, false);
      const readOnly = confinementFor(commands, this.gatewayPassword, true);
      const replies = await admin.send([
        ['ACL', 'SETUSER', GATEWAY_USER, ...standard.rules],
        ['ACL', 'SETUSER', READER_USER, ...readOnly.rules],
      ]);
      const refused = replies.find((reply) => reply.kind === 'error');
      if (refused?.kind === 'error') {
        throw new Error(`the redis engine could not create its ACL users (the Redis URL's user must be allowed to run ACL SETUSER): ${refused.message}`);
      }
      await this.store.check().catch((failure: Error) => {
        throw new Error(`the redis engine cannot use its private database (the Redis URL's user must be allowed to SELECT it, EVAL and HSET there): ${failure.message}`);
      });
      return { refusals: standard.refusals, serverCommands: new ServerCommands(commands, redisVersionOf(server)) };
    } finally {
      admin.close();
    }
  }

  private async open(caller: Caller): Promise<RedisConnection> {
    if (this.closed) throw engineClosed();
    if (caller.user === 'default') {
      const user = caller.readOnly ? READER_USER : GATEWAY_USER;
      const password = this.gatewayPassword;
      await this.gatewayReady();
      try {
        return await RedisConnection.open(this.address, this.timeoutMs, { user, password });
      } catch (failure) {
        // A restarted Redis, or an operator, removed the engine's users: create them again, once.
        if (!(failure as Error).message.startsWith('WRONGPASS')) throw failure;
        this.gateway = undefined;
        this.readyGateway = undefined;
        await this.gatewayReady();
        return RedisConnection.open(this.address, this.timeoutMs, { user, password });
      }
    }
    const { password } = caller;
    if (password === undefined) throw new EngineRefusal(`NOPERM user ${caller.user} has no REST token`);
    // A token minted before tokens were refused for the engine's own users (the URL's among them).
    if (this.engineUsers.has(caller.user)) throw new EngineRefusal(`NOPERM the user '${caller.user}' belongs to the REST server itself and has no REST token`);
    try {
      return await RedisConnection.open(this.address, this.timeoutMs, { user: caller.user, password });
    } catch (failure) {
      if ((failure as Error).message.startsWith('WRONGPASS')) throw new EngineRefusal((failure as Error).message);
      throw failure;
    }
  }

  /**
   * A pooled connection for the database's own tokens (a pool per token); one per ACL user
   * otherwise. Missing and dead ones are opened. The pools turn once per turn of the event loop,
   * not per request: while the connection handed out last still holds this turn's write (see
   * connection.ts), the requests that arrive together get it too, and so share one write.
   */
  private connectionFor(caller: Caller): RedisConnection | Promise<RedisConnection> {
    if (caller.user !== 'default') return this.userConnection(caller);
    const which = caller.readOnly ? 'readOnly' : 'standard';
    const last = this.lastHandedOut[which];
    if (last?.usable && last.writingThisTurn) return last;
    const pool = this.pools[which];
    const slot = this.next++ % this.poolSize;
    const held = pool[slot];
    // An open connection is handed out at once: no promise to wait for on the usual path.
    if (held instanceof RedisConnection && held.usable) return (this.lastHandedOut[which] = held);
    return this.pooledConnection(pool, slot, caller).then((connection) => (this.lastHandedOut[which] = connection));
  }

  /** The pool's connection in `slot`, opened when missing or dead; the slot keeps it once open. */
  private async pooledConnection(pool: PoolSlot[], slot: number, caller: Caller): Promise<RedisConnection> {
    const held = pool[slot];
    const connection = held instanceof Promise ? await held.catch(() => undefined) : held;
    if (connection?.usable) return connection;
    // Closed while it opened: the pools are empty and stay so.
    if (this.closed) throw engineClosed();
    if (pool[slot] === held) {
      const opening: Promise<RedisConnection> = this.open(caller).then((opened) => {
        if (pool[slot] === opening) pool[slot] = opened;
        return opened;
      });
      pool[slot] = opening;
    }
    return pool[slot];
  }

  /**
   * An ACL user's connection, authenticated again before each use: Redis keeps a connection's
   * rights after `ACL SETUSER <user> off` or a new password, so without this a revoked token would
   * keep its rights. AUTH costs one round trip; a refusal closes the connection.
   */
  private async userConnection(caller: Caller): Promise<RedisConnection> {
    const existing = await this.userConnections.get(caller.user)?.catch(() => undefined);
    if (!existing?.usable) {
      const opened = this.open(caller);
      this.userConnections.set(caller.user, opened);
      return opened;
    }
    const [auth] = await existing.send([['AUTH', caller.user, caller.password ?? '']]);
    if (auth.kind !== 'error') return existing;
    existing.close();
    this.userConnections.delete(caller.user);
    throw new EngineRefusal(auth.message);
  }

  /**
   * MULTI ... EXEC as one send() on the caller's pooled connection: Redis runs one connection's
   * commands in the order they arrive, and one write cannot be split by another request's, so
   * nothing interleaves with the transaction. A connection per transaction cost a connect and
   * AUTH/SELECT round trips each time: measured on loopback, a three-command /multi-exec took a
   * median 0.9-1.3 ms against 0.45-0.75 ms for the same /pipeline; pooled, 0.56-0.80 ms.
   */
  private async transaction(commands: readonly (readonly string[])[], caller: Caller, budget: ResponseBudget | undefined): Promise<Reply[]> {
    const connection = await this.connectionFor(caller);
    const replies = await connection.send([['MULTI'], ...commands, ['EXEC']], budget);
    const exec = replies[replies.length - 1];
    if (exec.kind === 'array') return [...exec.items];
    // EXECABORT (a command refused while queueing): every slot shows why.
    return commands.map((_, index) => (replies[index + 1].kind === 'error' ? replies[index + 1] : exec));
  }

  /** A connection turned into a stream; its first reply must come within the command time limit. */
  private async openStream(caller: Caller, command: readonly string[], onReply: (reply: Reply) => void): Promise<Subscription> {
    const connection = await this.open(caller);
    this.streams.add(connection);
    await new Promise<void>((resolve, reject) => {
      let first = true;
      // Judged after the replies that came in by then are read (shared/deadline.ts): judged in its
      // timer's callback, a first reply that came in time while the loop was held failed the stream.
      const deadline = new Deadline(() => {
        first = false;
        this.streams.delete(connection);
        connection.close();
        reject(new RedisTimeoutError(this.timeoutMs));
      }, this.timeoutMs);
      connection.stream(command, (reply) => {
        if (first) {
          first = false;
          deadline.cancel();
          if (reply.kind === 'error') {
            this.streams.delete(connection);
            connection.close();
            reject(new EngineRefusal(reply.message));
            return;
          }
          resolve();
        }
        onReply(reply);
      }, () => {
        deadline.cancel();
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
