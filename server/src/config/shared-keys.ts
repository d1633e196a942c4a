// Finds strategies whose counters would land on the same store keys: same path as written,
// overlapping key methods, and either different identifier sources (a header value could then
// count against an IP's limit) or limiters that write the same keys (two token buckets, or two
// window algorithms with the same window).
import { parseDuration } from './duration';

interface StrategyShape {
  readonly methods: readonly string[];
  readonly path: string;
  readonly identifierSource: string;
  readonly limiter: { readonly algorithm: string; readonly window: string };
}

function keyMethods(strategy: StrategyShape): Set<string> {
  const methods = strategy.methods.map((method) => method.toUpperCase());
  return new Set(methods.includes('ALL') ? ['ALL'] : methods);
}

function sameLimiterKeys(a: StrategyShape['limiter'], b: StrategyShape['limiter']): boolean {
  if (a.algorithm === 'token-bucket' || b.algorithm === 'token-bucket') return a.algorithm === b.algorithm;
  return parseDuration(a.window)?.milliseconds === parseDuration(b.window)?.milliseconds;
}

/** Each clash as [earlier index, later index, the shared method]. */
export function strategiesSharingKeys(strategies: readonly StrategyShape[]): [number, number, string][] {
  const clashes: [number, number, string][] = [];
  strategies.forEach((later, j) => {
    for (let i = 0; i < j; i++) {
      const earlier = strategies[i];
      if (earlier.path !== later.path) continue;
      const shared = [...keyMethods(earlier)].find((method) => keyMethods(later).has(method));
      if (!shared) continue;
      if (earlier.identifierSource !== later.identifierSource || sameLimiterKeys(earlier.limiter, later.limiter)) clashes.push([i, j, shared]);
    }
  });
  return clashes;
}
