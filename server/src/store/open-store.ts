// The store client of a limiter, chosen once from the compiled config: the key-value REST store at an
// http(s) `url` over our pipelining HTTP client, Redis itself at a redis `url` (one node, Sentinel or
// Cluster) over ioredis, or, when there is no `url` (development only: parse-config.ts refuses that in
// production), the embedded in-memory store in this process; and while the config says
// `enabled: false`, none: every call fails at once, so a disabled plugin never reaches a store.
import { Redis, type Requester, type UpstashResponse } from '@upstash/redis';
import type { Cluster } from 'ioredis';
import type { CompiledConfig } from '../config/rules';
import { EmbeddedRequester } from './embedded/embedded-requester';
import { openRedis } from './redis/redis-connection';
import { RedisRequester } from './redis/redis-requester';
import { createScriptClient, type ScriptClient } from './script-client';
import { PipeliningRequester, StoreUnavailableError } from './rest/rest-requester';
import type { StoreInUse } from '../admin-api/usage-types';
import { storeInUse } from './store-in-use';
import { tlsOptionsFor } from './tls-trust';

export interface StoreClient {
  readonly redis: Redis;
  /** The same store for the limiters' scripts, without @upstash/redis's command layer (script-client.ts). */
  readonly scripts: ScriptClient;
  readonly store: StoreInUse;
  /**
   * The same store for the admin API's bulk writes (a live limit's 16,384 copies on a Cluster): on a
   * Redis Cluster, a requester over the same connections with breakers of its own and
   * ADMIN_COMMAND_TIMEOUT_MS, so an admin change neither opens the breakers live requests use nor is
   * judged by their timeout; elsewhere the request path's own (one copy, written in one call).
   */
  readonly admin: Requester;
  /**
   * Calls `listener` after the transport connected again to a server that may have restarted or
   * failed over (Redis: each reconnection; REST and embedded: never, the limits' outages tell).
   */
  onReconnect(listener: () => void): void;
  close(): void;
}

const noStore: Requester & { close(): void } = {
  request: <TResult>(): Promise<UpstashResponse<TResult>> => Promise.reject(new StoreUnavailableError('the plugin config says enabled: false, so no store is used')),
  close: () => undefined,
};

/**
 * How long a command of an admin bulk write (admin-api/slot-live-limit-writes.ts, one chunk) may go
 * unanswered: generous, an admin waits for a change, where a request must not wait for the store.
 */
const ADMIN_COMMAND_TIMEOUT_MS = 2000;

type ClosableRequester = Requester & { close(): void };

/** The request path's requester and the admin API's bulk writes' (StoreClient.admin). */
interface Requesters {
  readonly requester: ClosableRequester | RedisRequester;
  readonly admin: ClosableRequester;
}

function requestersFor(config: CompiledConfig, store: StoreInUse, timeoutMs: number): Requesters {
  const address = config.storeAddress;
  const alone = (requester: ClosableRequester): Requesters => ({ requester, admin: requester });
  if (store.kind === 'none') return alone(noStore);
  if (address === undefined) return alone(new EmbeddedRequester());
  if (address.kind === 'rest') return alone(new PipeliningRequester(address.url, config.token ?? '', timeoutMs, new URL(address.url).protocol === 'https:' ? tlsOptionsFor(address) : undefined));
  const client = openRedis(address, timeoutMs);
  if (address.topology !== 'cluster') return alone(new RedisRequester(client, timeoutMs));
  const cluster = client as Cluster;
  return { requester: new RedisRequester(client, timeoutMs, cluster), admin: new RedisRequester(client, ADMIN_COMMAND_TIMEOUT_MS, cluster) };
}

export function openStore(config: CompiledConfig, timeoutMs: number): StoreClient {
  const store = storeInUse(config);
  const { requester, admin } = requestersFor(config, store, timeoutMs);
  const redis = new Redis(requester);
  const onReconnect = (listener: () => void): void => (requester instanceof RedisRequester ? requester.onReconnect(listener) : undefined);
  const close = (): void => {
    requester.close();
    if (admin !== requester) admin.close();
  };
  return { redis, scripts: createScriptClient(requester, redis), store, admin, onReconnect, close };
}
