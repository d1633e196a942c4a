// Inside the Koa app child: counts what reaches the plugin's embedded store (the in-process store of
// development, which has no server of its own to count in). Every request the plugin's store client
// makes goes through EmbeddedRequester.request, one call each, as it would be one HTTP request to a
// key-value REST server; the commands are those in its body. Wrapping the class's method, not the
// plugin, keeps the measured code the code a user runs.
import { EmbeddedRequester } from '../server/src/store/embedded/embedded-requester';
import { commandsInRequest } from './store-cost';
import type { EngineCounts } from './store-process';

/** Starts counting every embedded store in this process; the counts only grow. */
export function countEmbeddedStoreRequests(): Readonly<EngineCounts> {
  const counts: EngineCounts = { calls: 0, commands: 0 };
  const request = EmbeddedRequester.prototype.request;
  EmbeddedRequester.prototype.request = function countedRequest(this: EmbeddedRequester, upstashRequest) {
    counts.calls += 1;
    counts.commands += commandsInRequest(upstashRequest.path, upstashRequest.body);
    return request.call(this, upstashRequest);
  } as typeof request;
  return counts;
}
