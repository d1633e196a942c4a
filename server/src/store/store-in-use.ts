// Which store a config uses, as the usage report and the logs name it: the REST URL or the Redis
// address without credentials (no user, password, query or fragment: a `_token` query is a
// credential), the embedded in-memory store of development, or none: a plugin whose config says
// `enabled: false` calls no store at all, neither to limit nor for its admin page, which then shows
// its "disabled" notice rather than a store error.
import type { CompiledConfig } from '../config/rules';
import { describeAddress } from '../../../shared/store-address';
import type { StoreInUse } from '../admin-api/usage-types';

/** Which store a compiled config uses. */
export function storeInUse(config: Pick<CompiledConfig, 'enabled' | 'storeAddress'>): StoreInUse {
  if (!config.enabled) return { kind: 'none' };
  const address = config.storeAddress;
  return address === undefined ? { kind: 'embedded' } : { kind: address.kind, url: describeAddress(address) };
}

/** How logs name a store. */
export function describeStore(store: StoreInUse): string {
  if (store.kind === 'none') return 'no store (the plugin config says enabled: false)';
  if (store.kind === 'embedded') return 'the embedded in-memory store (no url in development: counters live in this Strapi process only; set url, and token for a REST store, to share them)';
  return store.kind === 'redis' ? `Redis at ${store.url}` : `the key-value store at ${store.url}`;
}

/** How a log line names the store as its subject: Redis on a Redis transport, else the key-value store. */
export const storeNoun = (config: Pick<CompiledConfig, 'storeAddress'>): string => (config.storeAddress?.kind === 'redis' ? 'Redis' : 'the key-value store');
