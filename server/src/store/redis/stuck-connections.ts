// When the Redis transport drops its connection of its own accord, so that ioredis makes it again:
// ioredis reconnects only when the socket closes, and some failovers never close it (issue 34 review,
// findings 1 to 3, each measured with a 500 ms timeout):
// - a node that hangs (SIGSTOP, a frozen VM, a partition: no RST) keeps its TCP connection up for
//   as long as the kernel holds unacknowledged data (about 15 minutes after a real host loss): every
//   request went to the failure mode for 40 s and more after the sentinels had promoted the replica,
//   and a plain redis:// host whose DNS name moved was never resolved again. A connection that read
//   nothing for a whole timeout while a command missed its deadline is dropped (at most once per
//   timeout): ioredis then asks the sentinels again, or resolves the host name again;
// - on a Cluster a hung master sends no MOVED and, under `cluster-require-full-coverage no`, no
//   CLUSTERDOWN either, so ioredis kept the slot map naming it: its slots failed for good after its
//   replica had taken over. A missed deadline asks for the slot map again (at most once per timeout),
//   besides the periodic refresh redis-connection.ts sets;
// - a redis:// node that became a replica (a managed "primary endpoint" that failed over by DNS, the
//   old node kept as a replica on the same connection) answered READONLY forever: that reply drops
//   the connection (once per timeout at first, backing off to once per 30 s while the node stays a
//   replica), so the host name is resolved again.
// A Redis that is busy for longer than the timeout (another client's slow script) is dropped the
// same way: one reconnection per timeout while it lasts, and its commands fail at their deadline anyway.
// What a dropped connection had in flight is not sent again (redis-connection.ts: its answer is
// unknown, and the failure mode has answered or will answer it at its deadline).
// Cost on the request path: one listener per read on the socket that notes the time (a read carries
// the replies of a turn, not one per command); nothing per command.
import type { Cluster, Redis } from 'ioredis';
import type { RedisClient } from './redis-connection';
import { TIMED_OUT } from './redis-command-turn';

/** The longest wait between two reconnections of a node that keeps answering READONLY. */
const MAX_READ_ONLY_RECONNECT_PERIOD_MS = 30_000;

/**
 * Lets an action through at most once per period: `basePeriodMs`, or, given a longer `maxPeriodMs`, a
 * period that doubles (up to it) while the action keeps being asked for and starts again at the base
 * when the action is asked for after two quiet periods.
 */
class AtMostOncePer {
  private last = -Infinity;
  private period: number;

  constructor(private readonly basePeriodMs: number, private readonly maxPeriodMs = basePeriodMs) {
    this.period = basePeriodMs;
  }

  /** Whether the action may run now (and, if so, counts it as run). */
  allows(): boolean {
    const now = performance.now();
    const since = now - this.last;
    if (since < this.period) return false;
    this.period = since > 2 * this.period ? this.basePeriodMs : Math.min(2 * this.period, this.maxPeriodMs);
    this.last = now;
    return true;
  }
}

/**
 * ioredis's reconnectOnError for one node: a READONLY reply drops the connection (1: the command is
 * refused with its READONLY, not sent again), once per `timeoutMs` at first, then ever less often
 * while the node stays a replica (a url that names a replica, a managed endpoint whose DNS name keeps
 * the old node for minutes): 20 new connections in 2 s at a 100 ms timeout before this backing off
 * (a TLS handshake each on rediss), 5 since; a failover later on starts again at the timeout.
 */
export function reconnectOnReadOnlyBackingOff(timeoutMs: number): (failure: Error) => 1 | false {
  const reconnects = new AtMostOncePer(timeoutMs, Math.max(timeoutMs, MAX_READ_ONLY_RECONNECT_PERIOD_MS));
  return (failure) => (failure.message.startsWith('READONLY') && reconnects.allows() ? 1 : false);
}

/** What the transport does when one of its commands missed its deadline. */
export interface MissedDeadlines {
  /** `failure` failed a command: if it is the deadline's, the connection may be stuck. */
  noteFailure(failure: unknown): void;
}

/** Whether `failure` is a command's deadline (redis-command-turn.ts, redis-requester.ts's withinDeadline). */
const isDeadline = (failure: unknown): boolean => failure instanceof Error && failure.message === TIMED_OUT;

/** One node or Sentinel's primary: a missed deadline drops a connection that has read nothing for a whole timeout. */
function dropSilentConnections(node: Redis, timeoutMs: number): MissedDeadlines {
  let lastReadAt = performance.now();
  const noteRead = (): void => {
    lastReadAt = performance.now();
  };
  node.on('connect', () => {
    noteRead();
    node.stream.on('data', noteRead);
  });
  const drops = new AtMostOncePer(timeoutMs);
  return {
    noteFailure(failure) {
      // A deadline is judged after a poll phase (shared/deadline.ts), which has read what the socket
      // held by then: the connection is dropped only when it read nothing for a whole timeout (judged
      // in the timers phase, before any poll, a healthy connection was dropped after each stall of the
      // app's event loop past the timeout: a 250 ms stall at a 200 ms timeout).
      if (isDeadline(failure) && node.status === 'ready' && performance.now() - lastReadAt >= timeoutMs && drops.allows()) node.disconnect(true);
    },
  };
}

/** A Cluster: a missed deadline asks for the slot map again. */
function refreshSlotMaps(cluster: Cluster, timeoutMs: number): MissedDeadlines {
  const refreshes = new AtMostOncePer(timeoutMs);
  return {
    noteFailure(failure) {
      if (isDeadline(failure) && refreshes.allows()) cluster.refreshSlotsCache();
    },
  };
}

/** What `client` does when its commands miss their deadline. */
export function watchMissedDeadlines(client: RedisClient, timeoutMs: number): MissedDeadlines {
  return client.isCluster ? refreshSlotMaps(client as Cluster, timeoutMs) : dropSilentConnections(client as Redis, timeoutMs);
}
