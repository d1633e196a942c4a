// The store client of a limiter, chosen once from the validated config: the key-value REST store at
// `url` over our pipelining HTTP client, or, when there is no `url` (development only: parse-config.ts
// refuses that in production), the embedded in-memory store in this process; and while the config says
// `enabled: false`, none: every call fails at once, so a disabled plugin never reaches a store.
import { Redis, type Requester, type UpstashResponse } from '@upstash/redis';
import type { RateLimitConfig } from '../config/schema';
import { EmbeddedRequester } from './embedded-requester';
import { createScriptClient, type ScriptClient } from './script-client';
import { PipeliningRequester, StoreUnavailableError } from './store-requester';
import type { StoreInUse } from '../admin-api/usage-types';
import { storeInUse } from './store-in-use';

export interface StoreClient {
  readonly redis: Redis;
  /** The same store for the limiters' scripts, without @upstash/redis's command layer (script-client.ts). */
  readonly scripts: ScriptClient;
  readonly store: StoreInUse;
  close(): void;
}

const noStore: Requester & { close(): void } = {
  request: <TResult>(): Promise<UpstashResponse<TResult>> => Promise.reject(new StoreUnavailableError('the plugin config says enabled: false, so no store is used')),
  close: () => undefined,
};

function requesterFor(config: RateLimitConfig, store: StoreInUse, timeoutMs: number): Requester & { close(): void } {
  if (store.kind === 'none') return noStore;
  return config.url === undefined ? new EmbeddedRequester() : new PipeliningRequester(config.url, config.token ?? '', timeoutMs);
}

export function openStore(config: RateLimitConfig, timeoutMs: number): StoreClient {
  const store = storeInUse(config);
  const requester = requesterFor(config, store, timeoutMs);
  const redis = new Redis(requester);
  return { redis, scripts: createScriptClient(requester, redis), store, close: () => requester.close() };
}
