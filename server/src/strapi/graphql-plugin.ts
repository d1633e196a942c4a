// What the rate limiter needs from Strapi's GraphQL plugin (@strapi/plugin-graphql): its endpoint,
// the page sizes it applies to list fields, and the schema it serves, for GraphQL strategies'
// counting and cost model (docs/graphql.md).
//
// The GraphQL plugin keeps no reference to its schema: its bootstrap builds it
// (`service('content-api').buildSchema()`, which resets the plugin's type registry, so calling it
// again is neither cheap nor harmless) and hands it to Apollo Server. So in register(), which runs
// before every plugin's bootstrap whatever their order, the limiter adds an Apollo plugin to the
// GraphQL plugin's documented `apolloServer` config (its `plugins` list is concatenated with the
// GraphQL plugin's own), and Apollo gives that plugin the schema it starts with (`serverWillStart`).
// Until Apollo has started (or without the GraphQL plugin) the getter answers undefined, and the
// limiter applies its rule for a request without a schema.
//
// Page sizes follow the GraphQL plugin's own pagination (@strapi/utils `withDefaultPagination`):
// with no `defaultLimit` configured a list returns 10 items; a `maxLimit` of -1 (its default) or any
// value that is not a positive number caps nothing (passed on as -1), and a positive one caps the
// default page size too. A number written as text counts as that number, as it does to Strapi.
import type { GraphQLSchema } from 'graphql';
import type { GraphqlOptions } from '../create-middleware';

const GRAPHQL_CONFIG = 'plugin::graphql';
const DEFAULT_ENDPOINT = '/graphql';
/** What Strapi's pagination returns when the GraphQL plugin sets no `defaultLimit`. */
export const STRAPI_DEFAULT_PAGE_SIZE = 10;

/** The seam's options (create-middleware.ts), with the schema getter always there. */
export type GraphqlPluginSettings = GraphqlOptions & { readonly schema: () => GraphQLSchema | undefined };

/** The parts of Strapi graphqlPluginSettings reads. */
export interface ConfigReadingStrapi {
  config: { get(path: string, fallback?: unknown): unknown };
}

/** The parts of Strapi watchGraphqlSchema reads and writes. */
export interface GraphqlConfigStrapi extends ConfigReadingStrapi {
  config: ConfigReadingStrapi['config'] & { set(path: string, value: unknown): unknown };
}

/** The Apollo Server plugin hook the schema is read from (Apollo Server 4's `serverWillStart`). */
interface SchemaWatchingApolloPlugin {
  serverWillStart(context: { readonly schema: GraphQLSchema }): Promise<void>;
}

// Per Strapi instance: one process may run several apps (tests, multi-tenant hosts).
const schemas = new WeakMap<object, { current?: GraphQLSchema }>();

/**
 * A page size as Strapi's pagination reads it: it compares and clamps with `<` and Math.max, which
 * read a numeric text (`env('GRAPHQL_DEFAULT_LIMIT')` gives one) as its number, and the database
 * takes the whole part of a fraction; rounded up here, so the charge is never below it. Anything but
 * a positive number is undefined (issue 35 hardening: `defaultLimit: '50'` was read as none, Strapi's
 * 10 items, while 50 were served).
 */
function positiveWholeNumber(value: unknown): number | undefined {
  const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  return number > 0 && Number.isFinite(number) ? Math.ceil(number) : undefined;
}

function graphqlConfig(strapi: ConfigReadingStrapi): Record<string, unknown> | undefined {
  const config = strapi.config.get(GRAPHQL_CONFIG);
  return typeof config === 'object' && config !== null ? (config as Record<string, unknown>) : undefined;
}

/**
 * Call in register(): when the GraphQL plugin is loaded, adds to its Apollo Server the plugin that
 * keeps the schema Apollo starts with, for `graphqlPluginSettings(strapi).schema()`.
 */
export function watchGraphqlSchema(strapi: GraphqlConfigStrapi): void {
  const config = graphqlConfig(strapi);
  if (!config) return;
  const holder: { current?: GraphQLSchema } = {};
  schemas.set(strapi, holder);
  const apolloServer = typeof config.apolloServer === 'object' && config.apolloServer !== null ? (config.apolloServer as Record<string, unknown>) : {};
  const plugins = Array.isArray(apolloServer.plugins) ? apolloServer.plugins : [];
  const watcher: SchemaWatchingApolloPlugin = {
    async serverWillStart({ schema }) {
      holder.current = schema;
    },
  };
  strapi.config.set(`${GRAPHQL_CONFIG}.apolloServer`, { ...apolloServer, plugins: [...plugins, watcher] });
}

/** What the GraphQL plugin's `maxLimit` means to Strapi's pagination: none. */
export const NO_MAX_LIMIT = -1;

/** The GraphQL plugin's endpoint, page sizes and schema getter (its defaults when it is not loaded). */
export function graphqlPluginSettings(strapi: ConfigReadingStrapi): GraphqlPluginSettings {
  const config = graphqlConfig(strapi) ?? {};
  const holder = schemas.get(strapi);
  const maxLimit = positiveWholeNumber(config.maxLimit) ?? NO_MAX_LIMIT;
  const defaultLimit = positiveWholeNumber(config.defaultLimit) ?? STRAPI_DEFAULT_PAGE_SIZE;
  return {
    endpoint: typeof config.endpoint === 'string' && config.endpoint !== '' ? config.endpoint : DEFAULT_ENDPOINT,
    defaultLimit: maxLimit === NO_MAX_LIMIT ? defaultLimit : Math.min(defaultLimit, maxLimit),
    maxLimit,
    schema: () => holder?.current,
  };
}
