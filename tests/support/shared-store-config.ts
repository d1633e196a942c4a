// Test support: the plugin config of Strapi instances that share one key-value REST server.
/**
 * The plugin config of instances that share the key-value REST server `kv`, with `rest` added. The
 * first calls reach a store that has just started (scripts compiled on first use) while several
 * Strapi boots load the machine: a generous timeout keeps them from failing open.
 */
export const sharedStoreConfig = (kv: { readonly url: string; readonly token: string }, rest: Record<string, unknown>) => ({ url: kv.url, token: kv.token, timeout: 5000, ...rest });
