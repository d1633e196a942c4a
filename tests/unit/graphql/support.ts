// Test support for the GraphQL charges (server/src/graphql/): a Strapi-like schema whose resolvers
// count their runs, and a request context holding an already parsed body, as the GraphQL route sees it.
import { buildSchema, type GraphQLSchema } from 'graphql';
import type { Context } from 'koa';
import { GRAPHQL_BOUND_DEFAULTS, type GraphqlBounds, type GraphqlSelection } from '../../../server/src/config/graphql-schema';
import { GraphqlCharges } from '../../../server/src/graphql/graphql-charges';

export const SCHEMA_TEXT = `
  input PaginationArg { page: Int pageSize: Int start: Int limit: Int }
  type Author { name: String articles(pagination: PaginationArg): [Article] }
  type Article { title: String author: Author tags: [String] }
  type Pagination { total: Int }
  type ArticleConnection { nodes: [Article!]! pageInfo: Pagination! }
  type LoginPayload { jwt: String }
  type Query { articles(pagination: PaginationArg): [Article] articles_connection(pagination: PaginationArg): ArticleConnection me: Author }
  type Mutation { login(identifier: String): LoginPayload! register(identifier: String): LoginPayload forgotPassword(email: String): Boolean }
`;

export const schema: GraphQLSchema = buildSchema(SCHEMA_TEXT);

/** Root resolvers that count their runs by field name. */
export function countingRoot(): { readonly runs: Record<string, number>; readonly root: Record<string, () => unknown> } {
  const runs: Record<string, number> = {};
  const run = (name: string, value: unknown) => () => {
    runs[name] = (runs[name] ?? 0) + 1;
    return value;
  };
  const article = { title: 't', tags: [], author: { name: 'a', articles: [] } };
  return {
    runs,
    root: {
      articles: run('articles', [article]),
      articles_connection: run('articles_connection', { nodes: [article], pageInfo: { total: 1 } }),
      me: run('me', { name: 'me', articles: [] }),
      login: run('login', { jwt: 'jwt' }),
      register: run('register', { jwt: 'jwt' }),
      forgotPassword: run('forgotPassword', true),
    },
  };
}

/** A POST whose body the GraphQL route's parser already read (the plugin reads ctx.request.body). */
export const postedContext = (body: unknown): Context => ({ method: 'POST', path: '/graphql', request: { body } }) as unknown as Context;

/** Charges as a limiter with these strategies computes them; page sizes default to 25, capped at 100 unless `maxLimit` says otherwise (0: no cap). */
export function chargesOf(selections: GraphqlSelection[], options: { bounds?: Partial<GraphqlBounds>; schema?: GraphQLSchema; maxLimit?: number } = {}): GraphqlCharges {
  return new GraphqlCharges(selections, { ...GRAPHQL_BOUND_DEFAULTS, ...options.bounds }, { endpoint: '/graphql', defaultLimit: 25, maxLimit: options.maxLimit ?? 100, schema: () => options.schema });
}
