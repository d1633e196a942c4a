// Finds strategies whose counters would land on the same store keys: paths that match the same
// requests (one canonical form, canonical-path.ts: `/api/articles/:id` and `/api/Articles/:slug/`), overlapping key methods and the same limiter part (algorithm and window), whatever their
// identifier sources (a header value can equal an IP's identifier). Strategies that differ in their
// limiter part write keys of their own (see keys.ts), so burst and sustained windows, or a
// window beside a token bucket, share a route freely. GraphQL strategies are compared by their
// route in keys (keys.ts `graphqlRoute`), which no path strategy's can equal. It runs inside the schema, on strategies
// whose other fields may have failed their own checks, so it parses their windows itself.
import { parseDuration } from './duration';
import type { GraphqlSelection } from './graphql-schema';
import { keyMethods, keyRoute, limiterInKey, routeOf } from './keys';
import { parsePathPattern } from './path-pattern';

interface StrategyShape {
  readonly methods?: readonly string[];
  readonly path?: string;
  readonly graphql?: GraphqlSelection;
  readonly limiter: { readonly algorithm: string; readonly window: string };
}

/** Each clash as [earlier index, later index, the shared method]. */
export function strategiesSharingKeys(strategies: readonly StrategyShape[]): [number, number, string][] {
  const clashes: [number, number, string][] = [];
  // zod runs this refinement even when a field failed its own checks: only well-formed windows count.
  const limiters = strategies.map((strategy) => {
    const window = typeof strategy.limiter?.window === 'string' ? parseDuration(strategy.limiter.window) : undefined;
    return window && limiterInKey(strategy.limiter.algorithm, window.milliseconds);
  });
  // One config has one endpoint: GraphQL strategies are compared at the default one.
  const routes = strategies.map((strategy) => {
    const path = strategy.graphql || typeof strategy.path !== 'string' ? undefined : parsePathPattern(strategy.path);
    return { ...routeOf(strategy), keyed: keyRoute(strategy, path) };
  });
  strategies.forEach((_later, j) => {
    for (let i = 0; i < j; i++) {
      if (routes[i].keyed !== routes[j].keyed || limiters[i] === undefined || limiters[i] !== limiters[j]) continue;
      const laterMethods = new Set(keyMethods(routes[j].methods));
      const shared = keyMethods(routes[i].methods).find((method) => laterMethods.has(method));
      if (shared) clashes.push([i, j, shared]);
    }
  });
  return clashes;
}
