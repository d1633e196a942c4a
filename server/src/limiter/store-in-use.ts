// Which store a config uses, as the usage report and the logs name it: the REST URL without
// credentials (no user, password or `_token` query), the embedded in-memory store of development, or
// none: a plugin whose config says `enabled: false` calls no store at all, neither to limit nor for
// its admin page, which then shows its "disabled" notice rather than a store error.
import type { RateLimitConfig } from '../config/schema';
import type { StoreInUse } from '../admin-api/usage-types';

/** The store's URL as logs may show it: no user, password, query (a `_token` is a credential) or fragment. */
function storeLocation(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
}

/** Which store a validated config uses. */
export function storeInUse(config: RateLimitConfig): StoreInUse {
  if (!config.enabled) return { kind: 'none' };
  return config.url === undefined ? { kind: 'embedded' } : { kind: 'rest', url: storeLocation(config.url) };
}

/** How logs name a store. */
export function describeStore(store: StoreInUse): string {
  if (store.kind === 'none') return 'no store (the plugin config says enabled: false)';
  return store.kind === 'embedded' ? 'the embedded in-memory store (no url in development: counters live in this Strapi process only; set url and token to share them)' : `the key-value store at ${store.url}`;
}

