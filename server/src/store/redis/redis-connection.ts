// The connection to a team's own Redis: an ioredis client for one node, a Sentinel-managed primary
// or a Cluster (shared/store-address.ts parses the url). Slot maps, MOVED/ASK redirects, following a
// failover and reconnecting are ioredis's work (the client rate-limiter-flexible's users already
// run), not ours. ioredis is loaded only when a Redis url is configured, so REST and embedded users
// never load it. What the options choose, and why:
// - commands issued in one turn of the event loop leave in one write per node: a request's limit
//   scripts and the turn's deny check share one round trip, as on the REST transport. The node's
//   connection (each master's on a Cluster) has its writes held for the turn (redis-command-turn.ts):
//   ioredis's auto-pipelining costs a pipeline object, several promises per command and one batch
//   in flight at a time per node (bench, plugin over redis://: 0.79x the peer's throughput and 1.37x
//   its CPU per decision with it, 1.00x and 1.11x corked, medians of 5 rounds on a loaded machine),
//   and on a Cluster a command it sends again (after `Connection is closed` or CLUSTERDOWN) gets its
//   timer anew, which held requests 2.5 s past a 500 ms timeout while a master failed over;
// - every command has the plugin's `timeout`: one deadline per turn's commands that nothing re-arms
//   (redis-command-turn.ts), not ioredis's `commandTimeout`, and a handshake that hangs is dropped
//   and tried again (retryHungHandshakes); a connection that stopped answering, or a Cluster's slot
//   map naming a master that did, is made again when a deadline is missed (stuck-connections.ts);
// - a command is never sent again once its answer is unknown or given: what was in flight when a
//   connection broke is not resent after reconnecting (autoResendUnfulfilledCommands; the failure
//   mode answers it at its deadline), and a command the deadline failed is not written when it
//   leaves an offline queue later (skipSettledCommands). Either would run a request the failure mode
//   had answered, charging a refused one (`closed`) or counting one twice (`local`: issue 34 review
//   finding 9). On a Cluster ioredis sends a command again to its slot's owner after a MOVED, ASK,
//   TRYAGAIN or CLUSTERDOWN (it did not run), or a closed connection, within the deadline;
// - after a Sentinel failover the old primary answers READONLY until ioredis has asked the
//   sentinels again: that reply reconnects and resends the command (once: it did not run) to the
//   new primary. A plain redis:// url names one node, so a READONLY there is refused as its answer,
//   which the boot check reports (store/store-check.ts), and reconnects (stuck-connections.ts),
//   resolving its host name again;
// - a Cluster reads its slot map every SLOTS_REFRESH_MS besides when a reply says it moved;
// - nothing connects before the first command (a limiter built and closed in a test opens nothing);
// - reconnection attempts at most 500 ms apart, and the circuit breaker closes as soon as ioredis is
//   connected again (redis-requester.ts), so a failover costs what the sentinels take to promote;
// - over TLS, every connection of the store (a reconnection, each Cluster node and slot-map refresh,
//   each sentinel) shares one secure context made when the client is opened (../tls-trust.ts): made
//   per connection from a url's tlsCa, it blocked the event loop 38 ms each, during a failover.
import type { Cluster, ClusterOptions, Command, Redis, RedisOptions } from 'ioredis';
import type { RedisAddress } from '../../../../shared/store-address';
import { Deadline } from '../../../../shared/deadline';
import { boundReplies } from './redis-reply-bound';
import { tlsOptionsFor } from '../tls-trust';
import { nameCertificateFailures } from './redis-tls';
import { reconnectOnReadOnlyBackingOff } from './stuck-connections';

export type RedisClient = Redis | Cluster;

interface IoRedisModule {
  Redis: new (options: RedisOptions) => Redis;
  Cluster: new (nodes: ReadonlyArray<{ host: string; port: number }>, options: ClusterOptions) => Cluster;
  Command: new (name: string, args: string[], options: { replyEncoding: 'utf8' }) => Command;
}

let loaded: IoRedisModule | undefined;
const ioredis = (): IoRedisModule => (loaded ??= require('ioredis') as IoRedisModule);

/** ioredis's Command class, read once: the package exports it through a getter. */
let commandClass: IoRedisModule['Command'] | undefined;
const REPLY_AS_STRINGS = { replyEncoding: 'utf8' } as const;
const NO_ARGUMENTS: string[] = [];

/**
 * A command as ioredis's `call` builds it (its reply as strings), for sendCommand: without `call`'s
 * own steps per command (a rest array, an options object, the auto-pipelining check). Its arguments,
 * strings already, are set after construction: the constructor copies them with
 * `Array.prototype.flat`, which V8 runs as a generic property walk, some 1,400 instructions per
 * argument (callgrind, a decision over redis:// sends 12 in its two commands: 17k of its ~560k),
 * and its other steps on them (ioredis's argument transformers, `stringifyArguments`) change
 * nothing in strings.
 */
export function redisCommand(name: string, args: string[]): Command {
  const command = new (commandClass ??= ioredis().Command)(name, NO_ARGUMENTS, REPLY_AS_STRINGS);
  command.args = args;
  return command;
}

/**
 * Milliseconds before the next reconnection attempt: 50, 100, ... up to 500 (ioredis's default goes
 * to 2000): a store that is back, or a new primary, is found within half a second, and an attempt
 * costs one refused connection.
 */
const reconnectDelay = (attempt: number): number => Math.min(attempt * 50, 500);

/**
 * How many times the plugin's timeout a connection's handshake may take before it is dropped and
 * tried again: ioredis's handshake is two or three round trips (AUTH, SELECT and CLIENT SETNAME
 * together, the ready check's INFO, Sentinel's ROLE), each of which its `commandTimeout` gave the
 * timeout.
 */
const HANDSHAKE_ROUND_TRIPS = 3;

/**
 * A node without ioredis's `commandTimeout` (the requester gives its commands their deadline,
 * redis-command-turn.ts) would wait in a handshake for as long as a node that accepted the connection
 * hangs. Past HANDSHAKE_ROUND_TRIPS times the timeout without being ready, the connection is dropped
 * and made again (its retry strategy; a Cluster's node connection is dropped, and ioredis makes a new
 * one when its slot map names the node), as a handshake command's timeout did. While Redis loads its
 * data set (the ready check waits for `loading:0`) that means a new connection every
 * HANDSHAKE_ROUND_TRIPS x timeout until it has loaded: harmless, and commands fail as an outage meanwhile.
 */
function retryHungHandshakes(client: Redis, timeoutMs: number): Redis {
  let handshake: Deadline | undefined;
  const done = (): void => handshake?.cancel();
  client.on('connect', () => {
    done();
    handshake = new Deadline(() => client.disconnect(true), HANDSHAKE_ROUND_TRIPS * timeoutMs);
  });
  client.on('ready', done);
  client.on('close', done);
  return client;
}

/** A reply that means the node we talk to is a replica now: ask where the primary is and send again. */
const reconnectOnReadOnly = (failure: Error): 2 | false => (failure.message.startsWith('READONLY') ? 2 : false);

/**
 * How often a Cluster reads its slot map when no reply said it moved: a hung master sends no MOVED
 * and, under `cluster-require-full-coverage no`, no CLUSTERDOWN, so its promoted replica would never
 * be learnt of (issue 34 review finding 2: with 2000, its slots were served again 2-6 s after the
 * hang, with node-timeout 1000). One CLUSTER SLOTS every 2 s is nothing beside the request traffic.
 */
const SLOTS_REFRESH_MS = 2000;

/**
 * Makes `node` skip a command already settled, here the turn's deadline failed it, when it is
 * handed one again: ioredis writes its offline queue when it is connected again, and a Cluster
 * sends a command again after a redirection or a closed connection, without looking whether it was
 * answered meanwhile (node_modules/ioredis/built/redis/event_handler.js, readyHandler).
 */
function skipSettledCommands(node: Redis): Redis {
  const send = node.sendCommand;
  node.sendCommand = function (this: Redis, command: Command, stream?: unknown) {
    return command.isSettled ? command.promise : send.call(this, command, stream as never);
  } as Redis['sendCommand'];
  return node;
}

function connectRedis(address: RedisAddress, timeoutMs: number): RedisClient {
  const { Redis, Cluster } = ioredis();
  const nodeOptions: RedisOptions = {
    username: address.username,
    password: address.password,
    tls: address.tls ? tlsOptionsFor(address) : undefined,
    connectionName: 'strapi-plugin-ratelimit',
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    lazyConnect: true,
    retryStrategy: reconnectDelay,
    // A dropped connection to a node that hangs is closed by its end only once the peer answers,
    // which it does not: ioredis destroys it after this (its default 2000 ms held the reconnection
    // to a promoted primary 2 s longer).
    disconnectTimeout: timeoutMs,
    // The reply meter (redis-reply-bound.ts) reads the framing as the decoder does in this mode,
    // its default: under 'resp3' the decoder skips fixed byte counts the meter would not.
    replyMapping: 'legacy',
  };
  if (address.topology === 'cluster') {
    // While a slot moves, a caller whose keys are split between two nodes is answered TRYAGAIN until
    // the move ends: retried every 50 ms until the plugin's timeout, then the failure mode applies.
    const retryDelayOnTryAgain = 50;
    const maxRedirections = Math.max(16, Math.ceil(timeoutMs / retryDelayOnTryAgain));
    const cluster = new Cluster([...address.hosts], { redisOptions: nodeOptions, lazyConnect: true, scaleReads: 'master', retryDelayOnTryAgain, maxRedirections, slotsRefreshInterval: SLOTS_REFRESH_MS });
    cluster.on('+node', (node: Redis) => retryHungHandshakes(skipSettledCommands(node), timeoutMs));
    return cluster;
  }
  if (address.topology === 'sentinel') {
    const primary = new Redis({
      ...nodeOptions,
      // The READONLY resend survives the close its reconnection causes (0 would fail the command
      // there): a command stays queued through one failed attempt, never past its deadline.
      maxRetriesPerRequest: 1,
      reconnectOnError: reconnectOnReadOnly,
      // Not ioredis's failoverDetector (the sentinels' +switch-master drops the connection): with it,
      // the plugin never reconnected after a killed primary's failover in two suites of one loaded
      // run. As read in node_modules/ioredis: the detector of a connection already lost still
      // listens, and its disconnect while the client asks the sentinels again clears the
      // connector's `connecting`, so that attempt throws and the client ends for good (status
      // `end`). A hung primary is left by the missed deadlines instead (stuck-connections.ts).
      db: address.db,
      sentinels: address.hosts.map(({ host, port }) => ({ host, port })),
      name: address.masterName,
      role: 'master',
      sentinelUsername: address.sentinelUsername,
      sentinelPassword: address.sentinelPassword,
      enableTLSForSentinelMode: address.tls,
      ...(address.tls ? { sentinelTLS: nodeOptions.tls } : {}),
    });
    return retryHungHandshakes(skipSettledCommands(primary), timeoutMs);
  }
  const [{ host, port }] = address.hosts;
  const node = new Redis({ ...nodeOptions, host, port, db: address.db, reconnectOnError: reconnectOnReadOnlyBackingOff(timeoutMs) });
  return retryHungHandshakes(skipSettledCommands(node), timeoutMs);
}

/**
 * The client for `address`. Its connection errors reach the plugin through each command's rejection
 * (the failure mode and its one warning per outage, the boot check), so the client's own error
 * events, which ioredis would print to the console on every reconnection attempt, are listened to
 * and dropped here; a certificate Node refuses fails the commands saying so (redis-tls.ts). Every
 * reply is bounded while it is read (redis-reply-bound.ts).
 */
export function openRedis(address: RedisAddress, timeoutMs: number): RedisClient {
  const client = connectRedis(address, timeoutMs);
  client.on('error', () => undefined);
  boundReplies(client, address.topology === 'cluster');
  if (address.tls && address.topology !== 'cluster') nameCertificateFailures(client as Redis);
  return client;
}
