// What the memory engine's server-level commands (INFO, FLUSHALL, ACL, PUBLISH ...) reach beyond a
// command's own context: the users, the pub/sub hub and a few counters INFO reports.
import type { AclUsers } from './acl/acl-users';
import type { Keyspace } from './keyspace';
import type { PubSubHub } from './pubsub-hub';

export interface ServerStats {
  commandsProcessed: number;
  /** Keys removed by active expiry (lazy removals are not counted). */
  expiredKeys: number;
}

export interface ServerState {
  readonly db: Keyspace;
  readonly acl: AclUsers;
  readonly pubsub: PubSubHub;
  /** Milliseconds since the epoch when the engine started. */
  readonly startedAt: number;
  readonly stats: ServerStats;
  /** Open subscriptions and monitors, for INFO's `connected_clients`. */
  readonly openStreams: () => number;
}
