// Why the Redis transport has no connection, named. ioredis reports why a connection attempt failed
// only as an event (which redis-connection.ts listens to), and fails the commands that waited with
// words of its own that name nothing: "Reached the max retries per request limit (which is 0). Refer
// to "maxRetriesPerRequest" option" for an address where nothing listens or credentials Redis
// refused, "Command timed out" (the turn's deadline) for a Sentinel url naming a master the sentinels
// do not know or a Cluster url at a node that is not in cluster mode. So the last failed attempt is
// kept, worded, and a command that failed while the client was not connected fails with it instead.
// Mistakes of configuration no retry mends (a master the sentinels do not know, nodes that are not a
// Cluster, credentials Redis refuses) are RedisSetupError, with what to do: the boot check reports
// them as an error line (store/store-check.ts), not as an outage. A certificate Node refuses is
// named where the connection is made (redis-tls.ts).
import type { Cluster, Redis } from 'ioredis';
import type { RedisClient } from './redis-connection';

/** A mistake of configuration that no reconnection mends, with what to do about it. */
export class RedisSetupError extends Error {
  constructor(
    message: string,
    readonly advice: string,
    options: { cause: unknown },
  ) {
    super(message, options);
    this.name = 'RedisSetupError';
  }
}

const CREDENTIALS_ADVICE = "check the user and password in the plugin config's url";

/** A socket error of a connection attempt (Node's `connect` and `getaddrinfo` failures). */
interface SocketFailure extends Error {
  code?: string;
  syscall?: string;
  address?: string;
  port?: number;
  hostname?: string;
}

/** A connection attempt's failure in words that name it, or undefined when it is none of those. */
function nodeFailure(failure: SocketFailure): Error | undefined {
  if (failure.code === 'ECONNREFUSED') return new Error(`${failure.address}:${failure.port} refused the connection (ECONNREFUSED: nothing listens there)`, { cause: failure });
  if (failure.syscall === 'getaddrinfo') return new Error(`the host ${failure.hostname} was not found (${failure.code})`, { cause: failure });
  if (failure.syscall === 'connect') return new Error(`the connection to ${failure.address}:${failure.port} failed (${failure.code})`, { cause: failure });
  // Redis's own words, as the boot check gives them when the handshake's refusal is a command's answer.
  if (/^(WRONGPASS|NOAUTH)/.test(failure.message)) return new RedisSetupError(failure.message, CREDENTIALS_ADVICE, { cause: failure });
  return undefined;
}

/** ioredis's Sentinel failure: "All sentinels are unreachable. Retrying from scratch after 10ms. Last error: <the last sentinel's>". */
const SENTINELS_FAILED = /^All sentinels are unreachable\. .*Last error: (.*)$/;

function sentinelFailure(failure: Error, client: Redis): Error | undefined {
  const last = SENTINELS_FAILED.exec(failure.message)?.[1];
  if (last === undefined) return undefined;
  const { name, sentinels = [] } = client.options;
  const where = sentinels.map(({ host, port }) => `${host}:${port}`).join(',');
  if (last.startsWith('ERR No such master')) {
    return new RedisSetupError(`the sentinels at ${where} do not know a master named ${name} (${last})`, 'check the master name after the sentinels in the url: SENTINEL MASTERS on a sentinel lists the names it watches', { cause: failure });
  }
  return new Error(`no sentinel at ${where} said where the primary ${name} is (${last})`, { cause: failure });
}

/**
 * ioredis's Cluster failure to read a slot map from any node, with the last node's error (a refused
 * connection reaches it as "Connection is closed.": the slot map is asked on a connection of its own).
 */
function clusterFailure(failure: Error & { lastNodeError?: Error }, nodes: readonly string[]): Error | undefined {
  const last = failure.lastNodeError;
  if (last === undefined) return undefined;
  if (last.message.includes('cluster support disabled')) {
    return new RedisSetupError(
      `${nodes.at(-1) ?? 'the node'} is not in cluster mode (${last.message})`,
      'the url names a Redis that is not a Redis Cluster: use redis://host:port for one Redis, or name the nodes of the cluster',
      { cause: failure },
    );
  }
  return nodeFailure(last) ?? new Error(`no node at ${nodes.join(',')} gave the cluster's slot map (${last.message})`, { cause: failure });
}

/** The last reason `client` could not connect, until it is connected again. */
export class ConnectionFailures {
  private last: Error | undefined;

  constructor(private readonly client: RedisClient) {
    client.on('ready', () => (this.last = undefined));
    if (client.isCluster) this.watchCluster(client as Cluster);
    else client.on('error', (failure: Error) => (this.last = nodeFailure(failure) ?? sentinelFailure(failure, client as Redis) ?? this.last));
  }

  /**
   * What a command's `failure` (not Redis's own error reply) is worth saying: the reason the client
   * could not connect while it is not connected, else the failure itself.
   */
  explain(failure: unknown): unknown {
    return this.last !== undefined && this.client.status !== 'ready' ? this.last : failure;
  }

  private watchCluster(cluster: Cluster): void {
    // The nodes that failed to give their slot map since the last map was read (each once), named
    // in the failure of the whole.
    const failing = new Set<string>();
    cluster.on('node error', (_failure: unknown, node: string) => failing.add(node));
    cluster.on('refresh', () => failing.clear());
    cluster.on('error', (failure: Error) => {
      this.last = clusterFailure(failure, [...failing]) ?? this.last;
      failing.clear();
    });
  }
}
