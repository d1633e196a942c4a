// The store client of a limiter, chosen once from the validated config: the key-value REST store at
// `url` over our pipelining HTTP client, or, when there is no `url` (development only: parse-config.ts
// refuses that in production), the embedded in-memory store in this process.
import { Redis, type Requester } from '@upstash/redis';
import type { RateLimitConfig } from '../config/schema';
import { EmbeddedRequester } from './embedded-requester';
import { PipeliningRequester } from './store-requester';
import type { StoreInUse } from '../admin-api/usage-types';
import { storeInUse } from './store-in-use';

export interface StoreClient {
  readonly redis: Redis;
  readonly store: StoreInUse;
  close(): void;
}

export function openStore(config: RateLimitConfig, timeoutMs: number): StoreClient {
  const store = storeInUse(config);
  const requester: Requester & { close(): void } = config.url === undefined ? new EmbeddedRequester() : new PipeliningRequester(config.url, config.token ?? '', timeoutMs);
  return { redis: new Redis(requester), store, close: () => requester.close() };
}
