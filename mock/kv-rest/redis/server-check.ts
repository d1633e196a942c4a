// What the redis engine checks before it serves, from `INFO server` and `INFO cluster`: a Redis it
// can serve is a single primary of Redis 7.0 or newer (the first with `COMMAND LIST` and the ACL
// rules the engine's users get). A Redis Cluster node would answer MOVED and CROSSSLOT per request
// and keep the engine's ACL users on that node only: the plugin's own Redis transport
// (`redis+cluster://` URLs) serves clusters, this REST server fronts one primary.
import type { Reply } from '../reply';
import { redisVersionOf } from './server-commands';

const OLDEST_MAJOR = 7;

const textOf = (info: Reply): string => (info.kind === 'bulk' ? info.value : '');

/** Why the engine cannot serve the Redis that gave these INFO replies (after "redis-server at <host:port> "), or undefined when it can. */
export function refusalToServe(server: Reply, cluster: Reply): string | undefined {
  if (/^cluster_enabled:1\r?$/m.test(textOf(cluster))) {
    return "runs in cluster mode (cluster_enabled:1): this REST server fronts one primary; use the plugin's own Redis transport (redis+cluster:// URLs) for a cluster";
  }
  const version = redisVersionOf(server);
  const major = Number(/^(\d+)\./.exec(version)?.[1]);
  if (!(major >= OLDEST_MAJOR)) return `is version ${version}: the redis engine needs Redis ${OLDEST_MAJOR}.0 or newer`;
  return undefined;
}
