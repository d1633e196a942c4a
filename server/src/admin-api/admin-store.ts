// The admin API's own connection to the store, one per Strapi instance: reads for the usage view
// may take longer than a request's limiter call, so they get their own, longer deadline. The
// embedded store of development lives in the limiter's process memory: the admin API reads that one
// (adminStoreShares), since a second embedded store would be another, empty keyspace.
import type { Redis } from '@upstash/redis';
import { parseConfig } from '../config/parse-config';
import type { RateLimitConfig } from '../config/schema';
import type { FailOpenReport } from './usage-types';
import { openStore } from '../limiter/open-store';

export const ADMIN_STORE_TIMEOUT_MS = 5000;

export interface ConfigSource {
  config: { get(path: string, fallback?: unknown): unknown };
}

/** Told after a caller's counters were reset, so in-memory state (the block cache) forgets it too. */
export type CallerResetListener = (strategyIndex: number, identifier: string) => void;

export interface AdminStore {
  readonly config: RateLimitConfig;
  readonly redis: Redis;
  readonly resetListeners: CallerResetListener[];
  /** The running limiter's fail-open count, when the plugin has one on this instance. */
  failOpen?: () => FailOpenReport;
  close(): void;
}

const stores = new WeakMap<object, AdminStore>();

export function adminStoreFor(strapi: ConfigSource): AdminStore {
  let store = stores.get(strapi);
  if (!store) {
    const config = parseConfig(strapi.config.get('plugin::ratelimit'));
    const { redis, close } = openStore(config, Math.max(config.timeout, ADMIN_STORE_TIMEOUT_MS));
    store = { config, redis, resetListeners: [], close };
    stores.set(strapi, store);
  }
  return store;
}

/** The plugin's limiter runs the embedded store: the admin API reads the same one (the limiter closes it). */
export function adminStoreShares(strapi: ConfigSource, redis: Redis): void {
  stores.set(strapi, { config: parseConfig(strapi.config.get('plugin::ratelimit')), redis, resetListeners: [], close: () => undefined });
}

/** The plugin registers here what must also forget a reset caller (its limiter's block cache). */
export function onCallerReset(strapi: ConfigSource, listener: CallerResetListener): void {
  adminStoreFor(strapi).resetListeners.push(listener);
}

/** The plugin registers here where the usage report reads its limiter's fail-open count. */
export function reportFailOpenFrom(strapi: ConfigSource, source: () => FailOpenReport): void {
  adminStoreFor(strapi).failOpen = source;
}

/** Releases the admin connection; the plugin's destroy() calls it. */
export function closeAdminStore(strapi: ConfigSource): void {
  stores.get(strapi)?.close();
  stores.delete(strapi);
}
