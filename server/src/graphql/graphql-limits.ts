// The GraphQL strategies of a limiter, compiled once (docs/graphql.md): the endpoint they count at
// (matched as the router matches a route: any letter case, one trailing slash), their rules in
// config order, and what charges a request (graphql-charges.ts, loaded with graphql-js only when a
// GraphQL strategy exists; charge-failures.ts when charging throws). `RateLimitMiddlewareOptions.graphql`
// is the seam: the Strapi plugin fills it from the GraphQL plugin's config and schema; plain Koa apps
// pass their own.
import type { GraphQLSchema } from 'graphql';
import { RateLimitConfigError } from '../config/errors';
import type { CompiledConfig } from '../config/rules';
import type { CompiledRule } from '../http/compile-strategies';
import { compilePathMatcher, type PathMatcher } from '../http/match';
import type { RequestCharges } from './graphql-charges';
import { ChargeFailures, type ChargeFailureLogger } from './charge-failures';
import { loadGraphqlCharges } from './load-graphql';
import type { Context } from 'koa';

/** Where GraphQL is served and how it pages lists: the GraphQL plugin's `endpoint`, `defaultLimit` and `maxLimit`. */
export interface GraphqlOptions {
  /** The GraphQL endpoint's path (default `/graphql`). */
  readonly endpoint: string;
  /** The page size of a list field without a `pagination` argument (default 25). */
  readonly defaultLimit: number;
  /** The largest page size served (default 100); 0 or less: none (Strapi's -1). */
  readonly maxLimit: number;
  /** The app's schema once built, for the cost model's field types; without it the cost is an upper bound. */
  readonly schema?: () => GraphQLSchema | undefined;
}

export const DEFAULT_GRAPHQL_OPTIONS: GraphqlOptions = { endpoint: '/graphql', defaultLimit: 25, maxLimit: 100 };

export interface GraphqlLimits {
  /** The GraphQL strategies' rules, in config order (a request's charges are in this order). */
  readonly rules: readonly CompiledRule[];
  readonly atEndpoint: PathMatcher;
  charge(ctx: Context): Promise<RequestCharges>;
  /** Whether allowed responses carry `extensions.rateLimit`. */
  readonly extensions: boolean;
}

/** The GraphQL limits of a config, or undefined without GraphQL strategies (graphql-js is then never loaded). */
export function compileGraphqlLimits(config: CompiledConfig, rules: readonly CompiledRule[], options: GraphqlOptions, logger: ChargeFailureLogger): GraphqlLimits | undefined {
  const graphqlRules = rules.flatMap((rule) => (rule.graphql ? [{ rule, selection: rule.graphql }] : []));
  // The config parsed the endpoint (options.endpoint) exactly when it has GraphQL strategies.
  const endpoint = config.graphqlEndpoint;
  if (graphqlRules.length === 0 || endpoint === undefined) return undefined;
  if (!Number.isInteger(options.defaultLimit) || options.defaultLimit < 1) throw new RateLimitConfigError([`graphql.defaultLimit (an option of the middleware): ${JSON.stringify(options.defaultLimit)} is not a whole number of at least 1`]);
  if (!Number.isInteger(options.maxLimit)) throw new RateLimitConfigError([`graphql.maxLimit (an option of the middleware): ${JSON.stringify(options.maxLimit)} is not a whole number (0 or less: none)`]);
  const { GraphqlCharges } = loadGraphqlCharges(graphqlRules[0].rule.index);
  const charges = new GraphqlCharges(
    graphqlRules.map(({ selection }) => selection),
    config.graphql,
    options,
  );
  const graphqlStrategies = graphqlRules.map(({ rule }) => rule);
  // An error no one planned for fails safe (charge-failures.ts): the request runs nothing and is counted.
  const failures = new ChargeFailures(graphqlStrategies, logger);
  return {
    rules: graphqlStrategies,
    atEndpoint: compilePathMatcher(endpoint),
    charge: (ctx) => charges.charge(ctx).catch((failure: unknown) => failures.charged(failure)),
    extensions: config.graphql.extensions,
  };
}
