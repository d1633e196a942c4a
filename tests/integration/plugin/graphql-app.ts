// Test support for GraphQL strategies in a plain Koa app: the plugin's middleware in front of
// graphql-js running a Strapi-like schema whose resolvers count their runs (tests/unit/graphql/support.ts),
// on the suite's key-value REST server. The handler runs what the request carries, as Apollo would:
// the body the plugin read (one operation or a batch), or the query string of a GET.
import { graphql } from 'graphql';
import type { Context } from 'koa';
import supertest from 'supertest';
import { startKoaApp } from '../../fixtures/koa-app';
import { countingRoot, schema } from '../../unit/graphql/support';
import { createRateLimitMiddleware, type RateLimitConfigInput, type RateLimitMiddleware, type RateLimitMiddlewareOptions } from '../../../server/src';
import { storeForSuite } from './support';

export interface GraphqlApp {
  readonly request: ReturnType<typeof supertest>;
  /** Resolver runs by root field. */
  readonly runs: Record<string, number>;
  readonly limiter: RateLimitMiddleware;
  /** The plugin's info lines (debug lines, shadow refusals). */
  readonly info: string[];
  /** The plugin's warning and error lines. */
  readonly warnings: string[];
  /** The app's key prefix: its counters and analytics are its own. */
  readonly prefix: string;
}

/** A mutation running `login` `count` times, each under its own alias. */
export const logins = (count: number) => ({ query: `mutation { ${Array.from({ length: count }, (_, index) => `a${index}: login(identifier: "x") { jwt }`).join(' ')} }` });

/** A limiter of `tokens` a fixed hour. */
export const fixed = (tokens: number) => ({ algorithm: 'fixed-window' as const, tokens, window: '1h' as const });

/** A GraphQL strategy of `tokens` logins per IP a fixed hour. */
export const loginStrategy = (tokens: number) => ({ graphql: { mutation: ['login'] }, identifierSource: 'ip' as const, limiter: fixed(tokens) });

/** A route strategy of `tokens` requests per IP a fixed hour on the GraphQL endpoint. */
export const endpointStrategy = (tokens: number) => ({ methods: ['ALL' as const], path: '/graphql' as const, identifierSource: 'ip' as const, limiter: fixed(tokens) });

/** A suite's store, and the apps its tests open (each with its own key prefix), closed after each test. The schema is given to the limiter unless `options.graphql` says otherwise. */
export function graphqlAppsForSuite(name: string) {
  const store = storeForSuite();
  const closers: Array<() => void> = [];
  afterEach(() => {
    for (const close of closers.splice(0)) close();
  });
  let apps = 0;
  const open = (config: RateLimitConfigInput, options: RateLimitMiddlewareOptions = {}): GraphqlApp => {
    const { runs, root } = countingRoot();
    const info: string[] = [];
    const warnings: string[] = [];
    const prefix = `${name}-${++apps}`;
    const limiter = createRateLimitMiddleware(
      { url: store.kv.url, token: store.kv.token, prefix, ...config },
      { logger: { info: (line) => info.push(line), warn: (line) => warnings.push(line), error: (line) => warnings.push(line) }, graphql: { schema: () => schema }, ...options },
    );
    const execute = async (ctx: Context) => {
      const request = (ctx.method === 'GET' ? { query: ctx.query.query, variables: ctx.query.variables && JSON.parse(String(ctx.query.variables)) } : ctx.request.body) as
        | { query: string; variables?: Record<string, unknown> }
        | Array<{ query: string }>;
      const run = (operation: { query: string; variables?: Record<string, unknown> }) => graphql({ schema, source: operation.query, rootValue: root, variableValues: operation.variables });
      ctx.body = Array.isArray(request) ? await Promise.all(request.map(run)) : await run(request);
    };
    const app = startKoaApp([limiter], execute);
    closers.push(() => (app.close(), limiter.close()));
    return { request: supertest(app.server), runs, limiter, info, warnings, prefix };
  };
  return { store, open };
}
