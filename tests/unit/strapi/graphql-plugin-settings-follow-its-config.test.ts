// What the Strapi plugin reads of Strapi's GraphQL plugin for GraphQL strategies (issue 35; the
// seam of server/src/strapi/graphql-plugin.ts): its endpoint and page sizes as its own pagination
// applies them, and the schema Apollo starts with, caught by an Apollo plugin added in register()
// beside the app's own Apollo settings. Issue 35 hardening: page sizes written as text (`env()` gives
// strings) are read as Strapi's pagination reads them; before, `defaultLimit: '50'` was charged as
// Strapi's 10 while 50 items were served.
import { buildSchema } from 'graphql';
import { graphqlPluginSettings, NO_MAX_LIMIT, STRAPI_DEFAULT_PAGE_SIZE, watchGraphqlSchema, type GraphqlConfigStrapi } from '../../../server/src/strapi/graphql-plugin';

/** A Strapi whose config holds `graphql` as `plugin::graphql` (nothing when undefined), with get and set by dotted path. */
function strapiWithGraphql(graphql: Record<string, unknown> | undefined): GraphqlConfigStrapi & { readonly stored: Record<string, unknown> } {
  const stored: Record<string, unknown> = graphql === undefined ? {} : { 'plugin::graphql': { ...graphql } };
  const walk = (path: string) => {
    const [root, ...rest] = path.split('.');
    return { root, rest };
  };
  return {
    stored,
    config: {
      get(path: string, fallback?: unknown) {
        const { root, rest } = walk(path);
        const value = rest.reduce<unknown>((node, key) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined), stored[root]);
        return value ?? fallback;
      },
      set(path: string, value: unknown) {
        const { root, rest } = walk(path);
        const parent = rest.slice(0, -1).reduce((node, key) => node[key] as Record<string, unknown>, stored[root] as Record<string, unknown>);
        parent[rest[rest.length - 1]] = value;
      },
    },
  };
}

type WatchingPlugin = { serverWillStart(context: { schema: unknown }): Promise<void> };

describe('the GraphQL plugin settings the limiter reads', () => {
  it('are the endpoint and page sizes the GraphQL plugin is configured with', () => {
    const settings = graphqlPluginSettings(strapiWithGraphql({ endpoint: '/gql', defaultLimit: 25, maxLimit: 100 }));
    expect([settings.endpoint, settings.defaultLimit, settings.maxLimit]).toEqual(['/gql', 25, 100]);
  });

  it('follow its pagination when it sets none: 10 items a list, no cap (maxLimit -1, its default)', () => {
    const settings = graphqlPluginSettings(strapiWithGraphql({ endpoint: '/graphql', maxLimit: -1 }));
    expect([settings.endpoint, settings.defaultLimit, settings.maxLimit]).toEqual(['/graphql', STRAPI_DEFAULT_PAGE_SIZE, NO_MAX_LIMIT]);
  });

  it('cap the default page size at maxLimit, as its pagination does', () => {
    const settings = graphqlPluginSettings(strapiWithGraphql({ defaultLimit: 200, maxLimit: 50 }));
    expect([settings.defaultLimit, settings.maxLimit]).toEqual([50, 50]);
  });

  it('read page sizes written as text as its pagination does: "50" items a list, a cap of " 100 "', () => {
    const capped = graphqlPluginSettings(strapiWithGraphql({ defaultLimit: '50', maxLimit: ' 100 ' }));
    const uncapped = graphqlPluginSettings(strapiWithGraphql({ defaultLimit: '40', maxLimit: '-1' }));
    expect([capped.defaultLimit, capped.maxLimit, uncapped.defaultLimit, uncapped.maxLimit]).toEqual([50, 100, 40, NO_MAX_LIMIT]);
  });

  it('are its defaults, with no schema, when the app does not serve the GraphQL plugin', () => {
    const strapi = strapiWithGraphql(undefined);
    watchGraphqlSchema(strapi);
    const settings = graphqlPluginSettings(strapi);
    expect([settings.endpoint, settings.defaultLimit, settings.maxLimit, settings.schema(), strapi.stored]).toEqual(['/graphql', 10, NO_MAX_LIMIT, undefined, {}]);
  });

  it('give the schema Apollo starts with, through a plugin added after the app\'s own Apollo plugins', async () => {
    const appPlugin = { requestDidStart: async () => undefined };
    const strapi = strapiWithGraphql({ endpoint: '/graphql', apolloServer: { allowBatchedHttpRequests: true, plugins: [appPlugin] } });
    watchGraphqlSchema(strapi);
    const settings = graphqlPluginSettings(strapi);
    const schemaBeforeStart = settings.schema();
    const apolloServer = strapi.config.get('plugin::graphql.apolloServer') as { allowBatchedHttpRequests: boolean; plugins: unknown[] };
    const schema = buildSchema('type Query { articles: [String] }');
    await (apolloServer.plugins[1] as WatchingPlugin).serverWillStart({ schema });
    expect([schemaBeforeStart, apolloServer.allowBatchedHttpRequests, apolloServer.plugins.length, apolloServer.plugins[0], settings.schema()]).toEqual([undefined, true, 2, appPlugin, schema]);
  });

  it('keep one schema per Strapi instance', async () => {
    const [first, second] = [strapiWithGraphql({}), strapiWithGraphql({})];
    watchGraphqlSchema(first);
    watchGraphqlSchema(second);
    const schema = buildSchema('type Query { articles: [String] }');
    const plugins = first.config.get('plugin::graphql.apolloServer.plugins') as WatchingPlugin[];
    await plugins[0].serverWillStart({ schema });
    expect([graphqlPluginSettings(first).schema(), graphqlPluginSettings(second).schema()]).toEqual([schema, undefined]);
  });
});
