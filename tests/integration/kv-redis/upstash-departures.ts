// Where the memory engine answers as hosted Upstash does instead of as Redis 7.0
// (docs/known-differences.md, issue 29), the differential suites expect Upstash's answer in place of
// redis-server's: only for these commands, and only where redis-server gave exactly the answer
// Upstash replaces, so every other reply of the same command is still compared with Redis's.
import { integer, type Reply } from '../../../mock/kv-rest/reply';

const SAME_OBJECT = 'ERR source and destination objects are the same';

/** The reply the memory engine must give to `args` where redis-server gave `redisReply`. */
export function expectedReply(args: readonly string[], redisReply: Reply): Reply {
  // COPY k k: Upstash copies nothing (0); Redis refuses once the options parsed.
  const copyOntoItself = args[0]?.toUpperCase() === 'COPY' && args[1] === args[2];
  if (copyOntoItself && redisReply.kind === 'error' && redisReply.message === SAME_OBJECT) return integer(0);
  return redisReply;
}
