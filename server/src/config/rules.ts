// The validated config turned into the domain types the plugin works with, once per instance: each
// strategy becomes a rule whose window is a parsed duration, whose methods are collapsed (`ALL`
// alone, else each listed method once in upper case) and which owns its store keys. The middleware,
// the usage view and reset read these rules and never the strategy's text again, so no window is
// parsed twice and a reset can only reach the keys of the rule it is given. A GraphQL strategy
// (docs/graphql.md) becomes a rule without a path: its `graphql` selection says which root fields it
// counts at the endpoint, and its route (keys.ts `graphqlRoute`) names the endpoint and the fields;
// the endpoint is parsed here too, once, and its keys name it in canonical form (keys.ts `keyRoute`).
import { DURATION_FORMAT, parseDuration, type Duration } from './duration';
import { RateLimitConfigError } from './errors';
import { canonicalPath } from './canonical-path';
import { compileKeyMethod, DEFAULT_GRAPHQL_ENDPOINT, keyMethods, keyRoute, routeOf, StrategyKeys } from './keys';
import type { GraphqlSelection } from './graphql-schema';
import { parsePathPattern, type PathPattern } from './path-pattern';
import type { Algorithm, Mode } from './config-literals';
import type { RateLimitConfig, StrategyConfig } from './schema';
import { parseStoreUrl, type StoreAddress } from '../../../shared/store-address';
import { keyPlacementOf, type KeyPlacement } from './key-placement';
import { tierEntries, type CallerClass } from './tiers';
import { readTlsCa } from './tls-ca-file';

/** How a rule counts: the algorithm, its tokens and refill (default applied) and the window. */
export interface Limit {
  readonly algorithm: Algorithm;
  readonly tokens: number;
  /** Tokens a token bucket gets back per window (`refillRate`, default `tokens`). */
  readonly refillRate: number;
  readonly window: Duration;
}

export interface Rule {
  readonly index: number;
  /** The strategy as written: the usage view lists it and debug lines name its path. */
  readonly strategy: StrategyConfig;
  /** The methods in the rule's keys, collapsed once. */
  readonly methods: readonly string[];
  /** The method in the rule's keys for a request method, or undefined when the rule does not apply. */
  keyMethod(requestMethod: string): string | undefined;
  /** The path a route strategy matches; undefined for a GraphQL strategy. */
  readonly path: PathPattern | undefined;
  /** The root fields a GraphQL strategy counts (and its charge); undefined for a route strategy. */
  readonly graphql: GraphqlSelection | undefined;
  /** The route in debug lines and the usage view: the path as written, or the GraphQL route (its keys hold the path's canonical form: keys.ts). */
  readonly route: string;
  readonly limit: Limit;
  /** The limits of the strategy's tiers (tiers.ts) by the class of caller they apply to, in the documented order; empty without tiers. */
  readonly tiers: ReadonlyMap<CallerClass, Limit>;
  readonly keys: StrategyKeys;
  readonly debug: boolean;
  /** The strategy's mode, or the config's when it names none: a shadow rule counts and never refuses. */
  readonly mode: Mode;
}

/** The validated config with its strategies compiled into rules (in config order). */
export interface CompiledConfig extends RateLimitConfig {
  readonly rules: readonly Rule[];
  /** Where `url` points, parsed; undefined without a url (the embedded store of development). */
  readonly storeAddress: StoreAddress | undefined;
  /** How the keys sit in that store (a Redis Cluster's are hash-tagged). */
  readonly placement: KeyPlacement;
  /** Where GraphQL strategies count, parsed; undefined without GraphQL strategies (the endpoint is then never read). */
  readonly graphqlEndpoint: PathPattern | undefined;
}

function compileStoreAddress(url: string | undefined): StoreAddress | undefined {
  if (url === undefined) return undefined;
  const parsed = parseStoreUrl(url);
  // The schema refuses it; a config that skipped it still gets an error naming the field.
  if (!parsed.ok) throw new RateLimitConfigError([`url: ${parsed.error}`]);
  const { address } = parsed;
  // The transport reads the file when it connects; a file it could not read is a mistake of this config.
  const ca = address.tlsCaFile !== undefined ? readTlsCa(address.tlsCaFile) : undefined;
  if (ca !== undefined && 'error' in ca) throw new RateLimitConfigError([`url: ${ca.error}`]);
  return address;
}

/** The GraphQL endpoint as written and parsed. */
interface GraphqlEndpoint {
  readonly written: string;
  readonly pattern: PathPattern;
}

/** The endpoint of a config with GraphQL strategies: a path, as a strategy's (a lone `*` is every content-API route, not an endpoint). */
function compileGraphqlEndpoint(endpoint: string): GraphqlEndpoint {
  const pattern = parsePathPattern(endpoint);
  if (pattern.kind === 'invalid' || pattern.kind === 'content-api') throw new RateLimitConfigError([`graphql.endpoint (an option of the middleware): ${pattern.kind === 'invalid' ? pattern.problem : 'must be a path, such as "/graphql"'}`]);
  return { written: endpoint, pattern };
}

function compileRule(config: RateLimitConfig, placement: KeyPlacement, endpoint: GraphqlEndpoint | undefined, strategy: StrategyConfig, index: number): Rule {
  const field = `strategy[${index}]`;
  const graphql = 'graphql' in strategy ? strategy.graphql : undefined;
  // The schema refuses both; a config that skipped it still gets an error naming the field.
  const path = 'path' in strategy ? parsePathPattern(strategy.path) : undefined;
  if (path?.kind === 'invalid') throw new RateLimitConfigError([`${field}.path: ${path.problem}`]);
  const window = parseDuration(strategy.limiter.window);
  if (!window) throw new RateLimitConfigError([`${field}.limiter.window: ${JSON.stringify(strategy.limiter.window)} is not ${DURATION_FORMAT}`]);
  const { algorithm, tokens, refillRate = tokens } = strategy.limiter;
  const route = routeOf(strategy, endpoint?.written);
  const methods = keyMethods(route.methods);
  return {
    index,
    strategy,
    methods,
    keyMethod: compileKeyMethod(methods),
    path,
    graphql,
    route: route.route,
    limit: { algorithm, tokens, refillRate, window },
    tiers: new Map(tierEntries(strategy.tiers).map(([name, tier]) => [name, { algorithm, tokens: tier.tokens, refillRate: tier.refillRate ?? tier.tokens, window }])),
    keys: new StrategyKeys(config.prefix, { methods, route: keyRoute(strategy, path, endpoint && canonicalPath(endpoint.pattern)), algorithm, windowMs: window.milliseconds }, placement),
    debug: strategy.debug === true || strategy.debug === 'true',
    mode: strategy.mode ?? config.mode,
  };
}

/** `graphqlEndpoint`: where the GraphQL plugin answers (its `endpoint`), named in GraphQL strategies' keys. */
export function compileConfig(config: RateLimitConfig, graphqlEndpoint = DEFAULT_GRAPHQL_ENDPOINT): CompiledConfig {
  const storeAddress = compileStoreAddress(config.url);
  const placement = keyPlacementOf(storeAddress);
  const endpoint = config.strategy.some((strategy) => 'graphql' in strategy) ? compileGraphqlEndpoint(graphqlEndpoint) : undefined;
  const rules = config.strategy.map((strategy, index) => compileRule(config, placement, endpoint, strategy, index));
  return { ...config, rules, storeAddress, placement, graphqlEndpoint: endpoint?.pattern };
}
