// The store keys of the plugin, one layout read one way:
//   `<prefix>:<method>:<route>:<identifier>:<limiter>` (+ `:<window number>` for the window algorithms)
// method is the request's (or `ALL`), route is the canonical form of the strategy's path (canonical-path.ts:
// `/api/articles/:` for `/api/Articles/:documentId/`, the same for every spelling that matches the same
// requests) with `%`, `:`, `{` and `}`
// escaped as `%25`, `%3A`, `%7B` and `%7D`, identifier is normalised (http/normalise-identifier.ts) and limiter names the
// algorithm and window (`fixed-window.10s`). No part but the prefix can hold a `:`, so a key splits
// into its parts in exactly one way: one strategy's stem plus an identifier can never be another
// strategy's key (a route `/a` with caller `x` vs the route `/a/:`), and strategies that share a
// route, method and caller (a burst window beside a sustained one) keep apart by their limiter part.
// Each compiled rule (rules.ts) owns one StrategyKeys: the limiter, the block cache, the usage view,
// reset and the boot check for strategies sharing keys (shared-keys.ts) all build and read keys here.
// The window number and which keys each algorithm keeps are @upstash/ratelimit's layout (docs/limiting.md,
// "How a strategy applies"); `counterKeys` is the one place that restates it, and a test drives the
// library and checks that the keys it writes are these.
// A GraphQL strategy (docs/graphql.md) counts under method `ALL` and a route naming the endpoint (in
// canonical form, as a path strategy's path: `/GraphQL/` keys as `/graphql`), its charge and its root
// fields (`graphqlRoute`): `/graphql#mutation(login,register)`, `/graphql#cost.query(articles)`. A
// path strategy can never write one: `(` and `)` are refused in paths (path-pattern.ts), so the two
// forms never share keys; GraphQL strategies that name the same fields with the same charge and
// limiter would, and the schema refuses them (shared-keys.ts).
// A strategy's live limit (docs/live-limits.md) sits apart from every counter, at
//   `<prefix>:live:<methods>:<route>:<limiter>` + the library's `:dynamic:global`
// with the methods sorted and joined by `,`: `live` is no method (methods are upper case), so no
// counter's parse or MATCH pattern reaches it, and it names the strategy by what decides its keys,
// not by its position, so reordering the config keeps each strategy's live limit.
import { canonicalPath } from './canonical-path';
import type { Algorithm } from './config-literals';
import { GRAPHQL_OPERATION_TYPES, type GraphqlSelection } from './graphql-schema';
import { identifierFromKey, identifierInKey, type KeyPlacement } from './key-placement';
import type { ParsedPathPattern } from './path-pattern';

/** What of a strategy decides its keys, parsed: the methods collapsed (`keyMethods`), the route as keyed (`keyRoute`), the window in ms. */
export interface KeyedStrategy {
  readonly methods: readonly string[];
  readonly route: string;
  readonly algorithm: Algorithm;
  readonly windowMs: number;
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

/** The methods a strategy's keys carry: `ALL` alone when listed, else each method once in upper case. */
export function keyMethods(methods: readonly string[]): string[] {
  const upper = [...new Set(methods.map((method) => method.toUpperCase()))];
  return upper.includes('ALL') ? ['ALL'] : upper;
}

/** For methods collapsed by `keyMethods`: the method in the keys for a request method, or undefined when none applies. */
export function compileKeyMethod(methods: readonly string[]): (requestMethod: string) => string | undefined {
  if (methods.includes('ALL')) return () => 'ALL';
  const listed = new Set(methods);
  // HEAD runs a GET route's handler, so it is counted as the GET it is.
  return (requestMethod) => {
    const method = requestMethod === 'HEAD' ? 'GET' : requestMethod;
    return listed.has(method) ? method : undefined;
  };
}

/** The GraphQL plugin's endpoint unless configured otherwise. */
export const DEFAULT_GRAPHQL_ENDPOINT = '/graphql';

/** A GraphQL strategy's route in keys and in the usage view: the endpoint, the charge and the fields of each type, sorted. */
export function graphqlRoute(endpoint: string, selection: GraphqlSelection): string {
  const types = GRAPHQL_OPERATION_TYPES.flatMap((type) => {
    const names = selection[type];
    return names ? [`${type}(${[...new Set(names)].sort().join(',')})`] : [];
  });
  return `${endpoint}#${selection.charge === 'cost' ? 'cost.' : ''}${types.join('')}`;
}

/**
 * The route in a strategy's keys, before escaping: a route strategy's parsed path in canonical form
 * (as written when it did not parse: it has an error of its own), or a GraphQL strategy's route at
 * `keyedEndpoint`, the endpoint's canonical form (rules.ts), so that instances configured with
 * `/GraphQL` and `/graphql/` (which the endpoint's matcher answers alike) share counters and live limits.
 */
export function keyRoute(strategy: { readonly graphql?: GraphqlSelection; readonly path?: string }, path: ParsedPathPattern | undefined, keyedEndpoint = DEFAULT_GRAPHQL_ENDPOINT): string {
  if (strategy.graphql) return graphqlRoute(keyedEndpoint, strategy.graphql);
  return path && path.kind !== 'invalid' ? canonicalPath(path) : (strategy.path ?? '');
}

/** What of a strategy, either form, names its route (as written: debug lines and the usage view show it) and methods in keys. */
export function routeOf(strategy: { readonly graphql?: GraphqlSelection; readonly path?: string; readonly methods?: readonly string[] }, endpoint = DEFAULT_GRAPHQL_ENDPOINT): { route: string; methods: readonly string[] } {
  if (strategy.graphql) return { route: graphqlRoute(endpoint, strategy.graphql), methods: ['ALL'] };
  return { route: strategy.path ?? '', methods: strategy.methods ?? [] };
}

const UNITS: ReadonlyArray<[string, number]> = [['d', 86_400_000], ['h', 3_600_000], ['m', 60_000], ['s', 1000]];

/** `fixed-window.10s`: the algorithm and the window in its largest whole unit (`10s` and `10000ms` are one window). */
export function limiterInKey(algorithm: string, windowMs: number): string {
  const unit = UNITS.find(([, size]) => windowMs % size === 0);
  return `${algorithm}.${unit ? `${windowMs / unit[1]}${unit[0]}` : `${windowMs}ms`}`;
}

/** Escapes the glob characters of Redis MATCH patterns so a value only ever matches itself. */
export function escapeGlob(value: string): string {
  return value.replace(/[*?[\]\\]/g, (char) => `\\${char}`);
}

const ROUTE_ESCAPES: Record<string, string> = { '%': '%25', ':': '%3A', '{': '%7B', '}': '%7D' };

/** A route (`keyRoute`) as it appears in keys: `%`, `:` and the hash-tag braces `{` `}` escaped, everything else as it is. */
export function routeInKey(path: string): string {
  return path.replace(/[%:{}]/g, (char) => ROUTE_ESCAPES[char]);
}

/**
 * Splits a key under `prefix` into its parts, or undefined when it is not a counter key of this
 * layout (analytics keys, another prefix, a foreign key).
 */
export function parseKey(prefix: string, key: string): ParsedKey | undefined {
  if (!key.startsWith(`${prefix}:`)) return undefined;
  const parts = key.slice(prefix.length + 1).split(':', 6);
  if (parts.length !== 4 && parts.length !== 5) return undefined;
  const [method, route, written, limiter, window] = parts;
  if (!/^[A-Z]+$/.test(method) || route === '' || limiter === '') return undefined;
  if (window !== undefined && !/^\d+$/.test(window)) return undefined;
  return { method, route, identifier: identifierFromKey(written), limiter, window: window === undefined ? undefined : Number(window) };
}

/** The keys of one strategy: built for the limiter, recognised for the usage view and reset. */
export class StrategyKeys {
  private readonly route: string;
  private readonly limiter: string;
  private readonly algorithm: Algorithm;
  private readonly windowMs: number;
  readonly methods: readonly string[];

  constructor(
    readonly prefix: string,
    strategy: KeyedStrategy,
    readonly placement: KeyPlacement = 'flat',
  ) {
    this.route = routeInKey(strategy.route);
    this.limiter = limiterInKey(strategy.algorithm, strategy.windowMs);
    this.algorithm = strategy.algorithm;
    this.windowMs = strategy.windowMs;
    this.methods = strategy.methods;
  }

  /** What the plugin passes to @upstash/ratelimit as its identifier (its prefix adds `<prefix>:`). */
  limiterKey(method: string, identifier: string): string {
    return `${method}:${this.route}:${identifierInKey(identifier, this.placement)}:${this.limiter}`;
  }

  /** The whole key (before any window number) of one caller. */
  storeKey(method: string, identifier: string): string {
    return `${this.prefix}:${this.limiterKey(method, identifier)}`;
  }

  /**
   * The keys @upstash/ratelimit counts one caller on one method in at `now`: fixed-window the
   * current window's counter; sliding-window the current and the previous window's (in that order);
   * token-bucket its one hash (fields `refilledAt`, `tokens`).
   */
  counterKeys(method: string, identifier: string, now: number): string[] {
    const stem = this.storeKey(method, identifier);
    if (this.algorithm === 'token-bucket') return [stem];
    const window = Math.floor(now / this.windowMs);
    return this.algorithm === 'fixed-window' ? [`${stem}:${window}`] : [`${stem}:${window}`, `${stem}:${window - 1}`];
  }

  /** Whether a parsed key is one of this strategy's counters (method, route, limiter and window shape). */
  owns(key: ParsedKey): boolean {
    return key.route === this.route && key.limiter === this.limiter && this.methods.includes(key.method) && (key.window !== undefined) === (this.algorithm !== 'token-bucket');
  }

  /**
   * Where the strategy's live limit is kept, before the library's own suffix (limiter/live-limit-scope.ts):
   * one per strategy, shared by all its methods. Strategies whose methods, route and limiter all agree
   * would share counters too, which the schema refuses (shared-keys.ts), so no two strategies share it.
   */
  liveLimitScope(): string {
    return `${this.prefix}:live:${[...this.methods].sort().join(',')}:${this.route}:${this.limiter}`;
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

/**
 * The Analytics prefix of shadow strategies' would-be refusals (`<prefix>:shadow:events:<hour>`):
 * a series apart from the enforced decisions' `<prefix>:events:<hour>`, and never a counter key
 * (`shadow` is no method).
 */
export const shadowSeriesPrefix = (prefix: string): string => `${prefix}:shadow`;
