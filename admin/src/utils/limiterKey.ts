// Reads back the limiter key the server records analytics under (`<METHOD>:<route>:<identifier>:<limiter>`,
// laid out by server/src/config/keys.ts), so "most limited callers" shows method, route and caller in
// columns instead of the raw key. None of the four parts can hold a `:` (the route escapes `%` and `:`
// as `%25` and `%3A`; identifiers are percent-encoded), so a key splits in one way only; a test drives
// the server's own key builder against this reader.

export interface LimiterKeyParts {
  method: string;
  /** The route as keyed: a strategy path's canonical form (`/api/articles/:` for `/api/Articles/:id`) or a GraphQL route. */
  route: string;
  identifier: string;
  /** The algorithm and window, `fixed-window.1d`. */
  limiter: string;
}

/** The parts of a limiter key, or undefined for a value of another shape (shown raw by the page). */
export function parseLimiterKey(key: string): LimiterKeyParts | undefined {
  const parts = key.split(':');
  if (parts.length !== 4 || parts.some((part) => part === '')) return undefined;
  const [method, route, identifier, limiter] = parts;
  if (!/^[A-Z]+$/.test(method)) return undefined;
  return { method, route: route.replace(/%3A|%25/g, (escape) => (escape === '%3A' ? ':' : '%')), identifier, limiter };
}
