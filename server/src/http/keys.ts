// The store keys of the plugin, one layout read one way:
//   `<prefix>:<method>:<route>:<identifier>:<limiter>` (+ `:<window number>` for the window algorithms)
// method is the request's (or `ALL`), route is the strategy's path as written with `%` and `:` escaped
// as `%25` and `%3A`, identifier is normalised (normalise-identifier.ts) and limiter names the
// algorithm and window (`fixed-window.10s`). No part but the prefix can hold a `:`, so a key splits
// into its parts in exactly one way: one strategy's stem plus an identifier can never be another
// strategy's key (a route `/a/` with caller `id` vs the route `/a/:id`), and strategies that share a
// route, method and caller (a burst window beside a sustained one) keep apart by their limiter part.
// The limiter, the usage view and reset all build and read keys here.
import { keyMethods, limiterInKey } from '../config/key-parts';

export { keyMethods, limiterInKey };

/** What of a strategy decides its keys. */
export interface KeyedStrategy {
  readonly methods: readonly string[];
  readonly path: string;
  readonly limiter: { readonly algorithm: string; readonly window: string };
}

/** A key of the plugin read back: which strategy shape wrote it, for which caller. */
export interface ParsedKey {
  readonly method: string;
  readonly route: string;
  readonly identifier: string;
  readonly limiter: string;
  /** The window number for the window algorithms; undefined for token-bucket hashes. */
  readonly window: number | undefined;
}

/** Escapes the glob characters of Redis MATCH patterns so a value only ever matches itself. */
export function escapeGlob(value: string): string {
  return value.replace(/[*?[\]\\]/g, (char) => `\\${char}`);
}

/** The route as it appears in keys: `%` and `:` escaped, everything else as written. */
export function routeInKey(path: string): string {
  return path.replace(/[%:]/g, (char) => (char === '%' ? '%25' : '%3A'));
}

/** Windowed algorithms append `:<window number>`; token-bucket keeps one hash per caller. */
export function isWindowed(strategy: KeyedStrategy): boolean {
  return strategy.limiter.algorithm !== 'token-bucket';
}

/**
 * Splits a key under `prefix` into its parts, or undefined when it is not a counter key of this
 * layout (analytics keys, another prefix, a foreign key).
 */
export function parseKey(prefix: string, key: string): ParsedKey | undefined {
  if (!key.startsWith(`${prefix}:`)) return undefined;
  const parts = key.slice(prefix.length + 1).split(':', 6);
  if (parts.length !== 4 && parts.length !== 5) return undefined;
  const [method, route, identifier, limiter, window] = parts;
  if (!/^[A-Z]+$/.test(method) || route === '' || limiter === '') return undefined;
  if (window !== undefined && !/^\d+$/.test(window)) return undefined;
  return { method, route, identifier, limiter, window: window === undefined ? undefined : Number(window) };
}

/** The keys of one strategy: built for the limiter, recognised for the usage view and reset. */
export class StrategyKeys {
  private readonly route: string;
  private readonly limiter: string;
  private readonly windowed: boolean;
  readonly methods: readonly string[];

  constructor(
    readonly prefix: string,
    strategy: KeyedStrategy,
  ) {
    this.route = routeInKey(strategy.path);
    this.limiter = limiterInKey(strategy.limiter);
    this.windowed = isWindowed(strategy);
    this.methods = keyMethods(strategy);
  }

  /** What the plugin passes to @upstash/ratelimit as its identifier (its prefix adds `<prefix>:`). */
  limiterKey(method: string, identifier: string): string {
    return `${method}:${this.route}:${identifier}:${this.limiter}`;
  }

  /** The whole key (before any window number) of one caller. */
  storeKey(method: string, identifier: string): string {
    return `${this.prefix}:${this.limiterKey(method, identifier)}`;
  }

  /** A MATCH pattern for every key of one caller (any method, any window); `owns` then checks each. */
  callerPattern(identifier: string): string {
    return `${escapeGlob(this.prefix)}:*:${escapeGlob(this.route)}:${escapeGlob(identifier)}:${escapeGlob(this.limiter)}*`;
  }

  /** Whether a parsed key is one of this strategy's counters (method, route, limiter and window shape). */
  owns(key: ParsedKey): boolean {
    return key.route === this.route && key.limiter === this.limiter && this.methods.includes(key.method) && (key.window !== undefined) === this.windowed;
  }

  /** The part of every key of this strategy that the route, method and limiter decide, for indexing. */
  shape(method: string): string {
    return `${method}:${this.route}:${this.limiter}`;
  }
}

/** The same shape for a parsed key, so a key finds its strategy in one map look-up. */
export function shapeOf(key: ParsedKey): string {
  return `${key.method}:${key.route}:${key.limiter}`;
}
