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

function requesterFor(config: CompiledConfig, store: StoreInUse, timeoutMs: number): (Requester & { close(): void }) | RedisRequester {
  const address = config.storeAddress;
  if (store.kind === 'none') return noStore;
  if (address === undefined) return new EmbeddedRequester();
  if (address.kind === 'rest') return new PipeliningRequester(address.url, config.token ?? '', timeoutMs, new URL(address.url).protocol === 'https:' ? tlsOptionsFor(address) : undefined);
  const client = openRedis(address, timeoutMs);
  return new RedisRequester(client, timeoutMs, address.topology === 'cluster' ? (client as Cluster) : undefined);
}

export function openStore(config: CompiledConfig, timeoutMs: number): StoreClient {
  const store = storeInUse(config);
  const requester = requesterFor(config, store, timeoutMs);
  const redis = new Redis(requester);
  const onReconnect = (listener: () => void): void => (requester instanceof RedisRequester ? requester.onReconnect(listener) : undefined);
  return { redis, scripts: createScriptClient(requester, redis), store, onReconnect, close: () => requester.close() };
}
