// The store keys of the plugin: `<prefix>:<method>:<route>:<identifier>`, where method is the
// request's (or `ALL` for a strategy that lists ALL), route is the strategy's path as written and
// identifier is normalised. @upstash/ratelimit appends `:<window index>` for fixed and sliding windows.

/** What the plugin passes to @upstash/ratelimit as the identifier (its prefix adds `<prefix>:`). */
export function limitIdentifier(method: string, route: string, identifier: string): string {
  return `${method}:${route}:${identifier}`;
}

/** The key (or key stem, before any window suffix) of one caller on one route. */
export function storeKey(prefix: string, method: string, route: string, identifier: string): string {
  return `${prefix}:${limitIdentifier(method, route, identifier)}`;
}
