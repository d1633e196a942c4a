// @upstash/redis's Requester over a team's own Redis (redis-connection.ts): the third transport beside
// the REST one (store-requester.ts) and the embedded one (embedded-requester.ts), so the limiters, the
// deny list, live limits and the admin API run unchanged on Redis. It answers what the REST API
// would: one command as `{ result }` or `{ error }`; a `/pipeline` as one envelope per command (sent
// command by command: ioredis's auto-pipelining puts a turn's commands in one write per node, and on
// a Cluster each goes to its own slot's node, where an ioredis pipeline would need one slot for all);
// a `/multi-exec` as MULTI/EXEC. Replies are RESP2 values as the REST API's JSON carries them
// (strings, integers, arrays, nil). An error reply is the store's answer; any other failure (no
// connection, the timeout) is a StoreUnavailableError, behind the same circuit breaker as REST.
// On a Cluster, a command answered with a redirection (MOVED, ASK, TRYAGAIN: its slot is moving), or
// whose auto-pipeline ioredis refused because the slot map changed under it, is sent again on its
// own, where ioredis follows the redirection (redis-connection.ts, sendAlone), so a resharding under
// load is no store failure. SCAN walks every primary in turn (the usage view reads every caller's counters): its
// cursor is `<primary index>-<that primary's cursor>`, the primaries taken in address order, and
// `0` once the last one is done. A primary added or removed during a walk can make it miss or repeat
// keys, as SCAN may anyway.
// Scripts: @upstash/ratelimit's start with `#!lua flags=allow-key-locking`, which Redis refuses, so
// EVAL sends the text with the flags Redis knows (shared/script-shebang.ts) and remembers the SHA it
// runs under, which EVALSHA of the client's SHA then names (until then Redis answers NOSCRIPT and the
// client falls back to EVAL, once per script and process).
import type { Requester, UpstashRequest, UpstashResponse } from '@upstash/redis';
import { scriptForRedis70, scriptSha } from '../../../shared/script-shebang';
import { failureMessage } from '../failure-message';
import type { Cluster, Redis } from 'ioredis';
import { sendAlone, type RedisClient } from './redis-connection';
import { StoreCircuit } from './store-circuit';
import { StoreUnavailableError } from './store-connections';

type Command = readonly unknown[];

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

/** ioredis's Cluster refuses a command whose keys are in different slots before sending it: Redis would answer CROSSSLOT. */
const isClientCrossSlot = (failure: unknown): failure is Error => failure instanceof Error && failure.message.includes('All the keys in a pipeline command should belong to the same slot');

/** A failure as the REST API would answer it: Redis's error reply (or the CROSSSLOT it would give), else an outage. */
function answerOf(failure: unknown): UpstashResponse<unknown> {
  if (isErrorReply(failure)) return { error: failure.message };
  if (isClientCrossSlot(failure)) return { error: `CROSSSLOT Keys in request don't hash to the same slot (${failure.message})` };
  throw new StoreUnavailableError(`Redis did not answer: ${failureMessage(failure)}`, { cause: failure });
}

/**
 * A Cluster's answer that the command belongs elsewhere or must wait for its slot to finish moving,
 * or ioredis's refusal of an auto-pipeline whose commands' slots the slot map, renewed meanwhile, no
 * longer puts on one node.
 */
const isRedirection = (failure: unknown): boolean =>
  (isErrorReply(failure) && /^(MOVED|ASK|TRYAGAIN) /.test(failure.message)) || (failure instanceof Error && failure.message.includes('should belong to the same slots allocation group'));

const toResult = (result: unknown): UpstashResponse<unknown> => ({ result });

const asString = (value: unknown): string => (typeof value === 'string' ? value : String(value));

const nodeAddress = (node: { options: { host?: string; port?: number } }): string => `${node.options.host}:${node.options.port}`;

/**
 * Holds a node's writes for the rest of the event loop's turn: the commands issued meanwhile leave in
 * one write when it is uncorked (Node's writable cork), with nothing built per command.
 */
class TurnCork {
  private held: { uncork(): void } | undefined;
  private readonly release = (): void => {
    const held = this.held;
    this.held = undefined;
    held?.uncork();
  };

  constructor(private readonly node: Redis) {}

  /** Corks the node's connection until the turn ends, once per turn, while it is connected. */
  hold(): void {
    if (this.held !== undefined || this.node.status !== 'ready') return;
    const stream = this.node.stream;
    stream.cork();
    this.held = stream;
    setImmediate(this.release);
  }
}

export class RedisRequester implements Requester {
  private readonly circuit = new StoreCircuit();
  private readonly scripts = new RewrittenScripts();

  /** One node's (not a Cluster's, which auto-pipelines per node). */
  private readonly cork: TurnCork | undefined;

  constructor(
    private readonly client: RedisClient,
    /** The client's Cluster, when it is one (its SCAN walks each primary). */
    private readonly cluster?: Cluster,
  ) {
    this.cork = cluster === undefined ? new TurnCork(client as Redis) : undefined;
    // ioredis knows when it is connected again (after a failover, to the new primary): the circuit
    // need not wait for its next probe, which after a few seconds of outage is seconds away.
    client.on('ready', () => this.circuit.storeIsBack());
  }

  request<TResult = unknown>(request: UpstashRequest): Promise<UpstashResponse<TResult>> {
    const path = request.path?.[0];
    if (path === undefined || path === '') return this.circuit.run(() => this.envelope(request.body as Command)) as Promise<UpstashResponse<TResult>>;
    if (path === 'pipeline') return this.circuit.run(() => this.pipeline(request.body as Command[])) as unknown as Promise<UpstashResponse<TResult>>;
    if (path === 'multi-exec') return this.circuit.run(() => this.transaction(request.body as Command[])) as unknown as Promise<UpstashResponse<TResult>>;
    return Promise.reject(new StoreUnavailableError(`the Redis transport serves commands, pipelines and transactions, not the REST path /${request.path!.join('/')}`));
  }

  close(): void {
    this.client.disconnect();
  }

  /** A command's name (lower case) and arguments as Redis takes them, scripts rewritten where they must be. */
  private prepare(command: Command): string[] {
    const prepared = new Array<string>(command.length);
    for (let index = 0; index < command.length; index++) prepared[index] = asString(command[index]);
    const name = (prepared[0] = prepared[0].toLowerCase());
    if (prepared.length > 1) {
      if (name === 'eval') prepared[1] = this.scripts.forEval(prepared[1]);
      else if (name === 'evalsha') prepared[1] = this.scripts.forEvalsha(prepared[1]);
    }
    return prepared;
  }

  /** One command's answer as the REST API gives it; rejects only when the store could not answer. */
  private envelope(command: Command): Promise<UpstashResponse<unknown>> {
    const prepared = this.prepare(command);
    const { cluster, cork } = this;
    if (cork !== undefined) cork.hold();
    if (cluster === undefined) return this.client.call(...(prepared as [string, ...string[]])).then(toResult, answerOf);
    if (prepared[0] === 'scan') return this.scanPrimaries(cluster, prepared.slice(1)).then(toResult, answerOf);
    return cluster.call(...(prepared as [string, ...string[]])).then(toResult, (failure: unknown) => (isRedirection(failure) ? sendAlone(cluster, prepared).then(toResult, answerOf) : answerOf(failure)));
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

  private pipeline(commands: readonly Command[]): Promise<UpstashResponse<unknown>[]> {
    return Promise.all(commands.map((command) => this.envelope(command)));
  }

  private async transaction(commands: readonly Command[]): Promise<UpstashResponse<unknown>[]> {
    this.cork?.hold();
    const transaction = this.client.multi();
    for (const command of commands) transaction.call(...(this.prepare(command) as [string, ...string[]]));
    let replies: [Error | null, unknown][] | null;
    try {
      replies = await transaction.exec();
    } catch (failure) {
      // A discarded transaction (EXECABORT: a command refused when queued) is the store's answer;
      // anything else an outage, which answerOf throws.
      throw new Error(answerOf(failure).error, { cause: failure });
    }
    if (replies === null) throw new StoreUnavailableError('Redis discarded the transaction');
    return replies.map(([failure, result]) => (failure ? { error: failure.message } : { result }));
  }
}
