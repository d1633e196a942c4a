// @upstash/redis's Requester over a team's own Redis (redis-connection.ts): the third transport beside
// the REST one (rest-requester.ts) and the embedded one (embedded-requester.ts), so the limiters, the
// deny list, live limits and the admin API run unchanged on Redis. It answers what the REST API
// would: one command as `{ result }` or `{ error }`; a `/pipeline` as one envelope per command (sent
// command by command: a turn's commands leave in one write per node with one deadline,
// redis-command-turn.ts; on a Cluster ioredis routes each to its own slot's node, where an ioredis
// pipeline would need one slot for all); a `/multi-exec` as MULTI/EXEC. Replies are RESP2 values as
// the REST API's JSON carries them (strings, integers, arrays, nil). An error reply is the store's
// answer; any other failure (no connection, the timeout) is a StoreUnavailableError, behind the same
// circuit breaker as REST: one per store, one per master on a Cluster (cluster-circuits.ts, each
// command behind its slot owner's, so a master failing over does not fail the others' callers). On a Cluster, ioredis follows MOVED and ASK and retries TRYAGAIN for each
// command (a slot moving under load is no store failure) until the turn's deadline. SCAN walks every
// primary in turn (the usage view reads every caller's counters): its
// cursor is `<primary index>-<that primary's cursor>`, the primaries taken in address order, and
// `0` once the last one is done. A primary added or removed during a walk can make it miss or repeat
// keys, as SCAN may anyway.
// Scripts: @upstash/ratelimit's start with `#!lua flags=allow-key-locking`, which Redis refuses, so
// EVAL sends the text with the flags Redis knows (shared/script-shebang.ts) and remembers the SHA it
// runs under, which EVALSHA of the client's SHA then names (until then Redis answers NOSCRIPT and the
// client falls back to EVAL, once per script and process).
import type { Requester, UpstashRequest, UpstashResponse } from '@upstash/redis';
import { Deadline } from '../../../../shared/deadline';
import { scriptForRedis70, scriptSha } from '../../../../shared/script-shebang';
import { failureMessage } from '../../failure-message';
import type { Cluster, Command, Redis } from 'ioredis';
import { clusterTarget, CommandTurn, nodeTarget, TIMED_OUT } from './redis-command-turn';
import { redisCommand, type RedisClient } from './redis-connection';
import { ConnectionFailures } from './redis-connection-failures';
import { watchMissedDeadlines, type MissedDeadlines } from './stuck-connections';
import { StoreCircuit } from '../store-circuit';
import { ClusterCircuits } from './cluster-circuits';
import { StoreUnavailableError } from '../rest/rest-connections';

/** A command as @upstash/redis sends it to the REST API: its name, then its arguments. */
type RestCommand = readonly unknown[];

/** The SHA of a client's script text -> the SHA of the text Redis runs, for texts that had to change. */
class RewrittenScripts {
  private readonly shas = new Map<string, string>();

  /** The text to send for an EVAL of `text`, remembering its SHA when it differs. */
  forEval(text: string): string {
    const sent = scriptForRedis70(text);
    if (sent !== text) this.shas.set(scriptSha(text), scriptSha(sent));
    return sent;
  }

  /** The SHA to send for an EVALSHA of `sha`. */
  forEvalsha(sha: string): string {
    return this.shas.get(sha) ?? sha;
  }
}

/** Whether ioredis rejected with the server's error reply (the store answered) rather than a failure of its own. */
const isErrorReply = (failure: unknown): failure is Error => failure instanceof Error && failure.name === 'ReplyError';

/** ioredis's Cluster refuses a transaction whose keys are in different slots before sending it: Redis would answer CROSSSLOT. */
const isClientCrossSlot = (failure: unknown): failure is Error => failure instanceof Error && failure.message.includes('All the keys in a pipeline command should belong to the same slot');

/**
 * A failure as the REST API would answer it: Redis's error reply (or the CROSSSLOT it would give),
 * else an outage, in the words of `reason` when the connection's failures name one (redis-connection-failures.ts).
 */
function answerOf(failure: unknown, reason: unknown = failure): UpstashResponse<unknown> {
  if (isErrorReply(failure)) return { error: failure.message };
  if (isClientCrossSlot(failure)) return { error: `CROSSSLOT Keys in request don't hash to the same slot (${failure.message})` };
  if (reason !== failure) throw new StoreUnavailableError(failureMessage(reason), { cause: reason });
  throw new StoreUnavailableError(`Redis did not answer: ${failureMessage(failure)}`, { cause: failure });
}

const toResult = (result: unknown): UpstashResponse<unknown> => ({ result });

const asString = (value: unknown): string => (typeof value === 'string' ? value : String(value));

/** A command's name as ioredis takes it (lower case). */
const nameOf = (command: RestCommand): string => asString(command[0]).toLowerCase();

const nodeAddress = (node: { options: { host?: string; port?: number } }): string => `${node.options.host}:${node.options.port}`;

/**
 * `promise`, or a failure as ioredis's timeout words it once `ms` have passed (a transaction or a
 * Cluster's SCAN: one call, seldom sent), judged after the replies that came in by then are read
 * (shared/deadline.ts).
 */
function withinDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let expire: (failure: Error) => void = () => undefined;
  const late = new Promise<never>((_, reject) => (expire = reject));
  const deadline = new Deadline(() => expire(new Error(TIMED_OUT)), ms);
  return Promise.race([promise, late]).finally(() => deadline.cancel());
}

export class RedisRequester implements Requester {
  private readonly circuit = new StoreCircuit('Redis');
  /** On a Cluster, a breaker per master; the one above then guards what no slot places. */
  private readonly nodeCircuits: ClusterCircuits | undefined;
  private readonly scripts = new RewrittenScripts();
  /** The commands of each turn: one write per node, one deadline. */
  private readonly turn: CommandTurn;
  private readonly failures: ConnectionFailures;
  private readonly missedDeadlines: MissedDeadlines;
  private readonly reconnectListeners: Array<() => void> = [];

  constructor(
    private readonly client: RedisClient,
    /** The plugin's `timeout`: how long a command may go unanswered before it fails as an outage. */
    private readonly timeoutMs: number,
    /** The client's Cluster, when it is one (its SCAN walks each primary). */
    private readonly cluster?: Cluster,
  ) {
    this.turn = new CommandTurn(cluster === undefined ? nodeTarget(client as Redis) : clusterTarget(cluster), timeoutMs);
    this.failures = new ConnectionFailures(client);
    this.missedDeadlines = watchMissedDeadlines(client, timeoutMs);
    this.nodeCircuits = cluster === undefined ? undefined : new ClusterCircuits(cluster, this.circuit);
    // ioredis knows when it is connected again (after a failover, to the new primary): the circuit
    // need not wait for its next probe, which after a few seconds of outage is seconds away.
    let connectedBefore = false;
    client.on('ready', () => {
      this.circuit.storeIsBack();
      this.nodeCircuits?.storeIsBack();
      if (connectedBefore) for (const listener of this.reconnectListeners) listener();
      connectedBefore = true;
    });
  }

  /** Calls `listener` after each reconnection (not the first connection): the server may have restarted or failed over and lost what it held. */
  onReconnect(listener: () => void): void {
    this.reconnectListeners.push(listener);
  }

  request<TResult = unknown>(request: UpstashRequest): Promise<UpstashResponse<TResult>> {
    const path = request.path?.[0];
    if (path === undefined || path === '') return this.guarded(request.body as RestCommand) as Promise<UpstashResponse<TResult>>;
    if (path === 'pipeline') return this.guardedPipeline(request.body as RestCommand[]) as unknown as Promise<UpstashResponse<TResult>>;
    if (path === 'multi-exec') return this.circuit.run(() => this.transaction(request.body as RestCommand[])) as unknown as Promise<UpstashResponse<TResult>>;
    return Promise.reject(new StoreUnavailableError(`the Redis transport serves commands, pipelines and transactions, not the REST path /${request.path!.join('/')}`));
  }

  close(): void {
    this.turn.close();
    this.client.disconnect();
  }

  /** A command's failure as the REST API would answer it (answerOf), an outage named by what kept the connection from being made; a missed deadline may make the connection again (stuck-connections.ts). */
  private readonly answerOf = (failure: unknown): UpstashResponse<unknown> => {
    this.missedDeadlines.noteFailure(failure);
    return answerOf(failure, this.failures.explain(failure));
  };

  /** A command's arguments as Redis takes them (strings), a script's text or SHA rewritten where it must be. */
  private argumentsOf(name: string, command: RestCommand): string[] {
    const args = new Array<string>(command.length - 1);
    for (let index = 1; index < command.length; index++) args[index - 1] = asString(command[index]);
    if (args.length > 0) {
      if (name === 'eval') args[0] = this.scripts.forEval(args[0]);
      else if (name === 'evalsha') args[0] = this.scripts.forEvalsha(args[0]);
    }
    return args;
  }

  /** One command behind its circuit breaker: the store's, or on a Cluster its master's. */
  private guarded(command: RestCommand): Promise<UpstashResponse<unknown>> {
    const name = nameOf(command);
    if (this.nodeCircuits === undefined || name === 'scan') return this.circuit.run(() => this.envelope(command));
    const sent = redisCommand(name, this.argumentsOf(name, command));
    return this.nodeCircuits.of(sent).run(() => this.answerTo(sent));
  }

  /** A pipeline behind the store's breaker as one call, or on a Cluster each command behind its master's. */
  private guardedPipeline(commands: readonly RestCommand[]): Promise<UpstashResponse<unknown>[]> {
    if (this.nodeCircuits === undefined) return this.circuit.run(() => Promise.all(commands.map((command) => this.envelope(command))));
    return Promise.all(commands.map((command) => this.guarded(command)));
  }

  /** One command's answer as the REST API gives it; rejects only when the store could not answer. */
  private envelope(command: RestCommand): Promise<UpstashResponse<unknown>> {
    const name = nameOf(command);
    const args = this.argumentsOf(name, command);
    if (name === 'scan' && this.cluster !== undefined) return withinDeadline(this.scanPrimaries(this.cluster, args), this.timeoutMs).then(toResult, this.answerOf);
    return this.answerTo(redisCommand(name, args));
  }

  /** `command` sent with this turn's others, answered as the REST API would. */
  private answerTo(command: Command): Promise<UpstashResponse<unknown>> {
    return this.turn.send(command).then(toResult, this.answerOf);
  }

  /** SCAN over every primary of a cluster, one primary at a time (see the header). */
  private async scanPrimaries(cluster: Cluster, [cursor = '0', ...options]: string[]): Promise<[string, unknown]> {
    const primaries = cluster.nodes('master').sort((a, b) => nodeAddress(a).localeCompare(nodeAddress(b)));
    const dash = cursor.indexOf('-');
    const [index, nodeCursor] = cursor === '0' ? [0, '0'] : [dash > 0 ? Number(cursor.slice(0, dash)) : NaN, cursor.slice(dash + 1)];
    const primary = Number.isInteger(index) ? primaries[index] : undefined;
    // Worded and typed as Redis's own answer to a cursor it did not give.
    if (primary === undefined) throw Object.assign(new Error('ERR invalid cursor'), { name: 'ReplyError' });
    const [next, keys] = (await primary.call('scan', nodeCursor, ...options)) as [string, unknown];
    if (next !== '0') return [`${index}-${next}`, keys];
    return [index + 1 < primaries.length ? `${index + 1}-0` : '0', keys];
  }

  private async transaction(commands: readonly RestCommand[]): Promise<UpstashResponse<unknown>[]> {
    const transaction = this.client.multi();
    for (const command of commands) {
      const name = nameOf(command);
      transaction.call(name, ...this.argumentsOf(name, command));
    }
    let replies: [Error | null, unknown][] | null;
    try {
      replies = await withinDeadline(transaction.exec(), this.timeoutMs);
    } catch (failure) {
      // A discarded transaction (EXECABORT: a command refused when queued) is the store's answer;
      // anything else an outage, which answerOf throws.
      throw new Error(this.answerOf(failure).error, { cause: failure });
    }
    if (replies === null) throw new StoreUnavailableError('Redis discarded the transaction');
    return replies.map(([failure, result]) => (failure ? { error: failure.message } : { result }));
  }
}
