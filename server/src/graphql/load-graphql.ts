// Loads the GraphQL side of the plugin (graphql-charges.ts, which imports graphql-js) only for a
// config with GraphQL strategies: `graphql` is an optional peer dependency, so apps without the
// GraphQL plugin need not install it, and an app with it gets the one copy its GraphQL plugin uses
// (graphql-js checks its schema objects with instanceof: a second copy would not know the app's schema).
import { RateLimitConfigError } from '../config/errors';
import type * as Charges from './graphql-charges';

export type GraphqlChargesModule = typeof Charges;

/** The module, or a config error naming the strategy that needs graphql-js and what to install. */
export function loadGraphqlCharges(firstStrategyIndex: number): GraphqlChargesModule {
  try {
    require.resolve('graphql');
  } catch (failure) {
    throw new RateLimitConfigError(
      [`strategy[${firstStrategyIndex}].graphql: GraphQL strategies need the graphql package (graphql-js 16, the one @strapi/plugin-graphql uses): npm install graphql@16`],
      { cause: failure },
    );
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./graphql-charges') as GraphqlChargesModule;
}
