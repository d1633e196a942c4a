// Test support: the plugin's middleware in front of the GraphQL plugin's own route stack, for the
// findings that need Apollo Server's behaviour (its automatic persisted queries, its document store,
// its batches): koa-bodyparser, then Apollo Server 4's Koa integration (the copies @strapi/plugin-graphql
// installs), with APQ and the document store on as Apollo has them by default, over the Strapi-like
// schema whose resolvers count their runs (tests/unit/graphql/support.ts). Stack traces are left out
// of Apollo's errors so that its answers compare whole. Middleware the app runs before the limiter
// (`before`) stands for what an app may place ahead of it.
import { ApolloServer, type ApolloServerOptions } from '@apollo/server';
import { koaMiddleware } from '@as-integrations/koa';
import type { Middleware } from 'koa';
import supertest from 'supertest';
import { startKoaApp } from '../../fixtures/koa-app';
import { countingRoot, schema } from '../../unit/graphql/support';
import { createRateLimitMiddleware, type RateLimitConfigInput, type RateLimitMiddleware } from '../../../server/src';

// The parser of Strapi's GraphQL route (a dependency of @strapi/plugin-graphql; it ships no types).
const bodyParser = require('koa-bodyparser') as () => Middleware;

export interface ApolloApp {
  /** Requests carry `apollo-require-preflight`, as Apollo's CSRF prevention asks of a GET. */
  readonly request: ReturnType<typeof supertest>;
  /** Resolver runs by root field. */
  readonly runs: Record<string, number>;
  /** The limiter, when the app has one. */
  readonly limiter: RateLimitMiddleware | undefined;
  /** The limiter's warning and error lines. */
  readonly warnings: string[];
}

type ApolloOptions = Partial<Pick<ApolloServerOptions<object>, 'allowBatchedHttpRequests' | 'plugins'>>;

/** Opens apps (the limiter with `config`, or none) before Apollo, each closed after the test. */
export function apolloAppsForSuite() {
  const closers: Array<() => Promise<unknown> | void> = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });
  return async (config: RateLimitConfigInput | undefined, apolloOptions: ApolloOptions = {}, before: readonly Middleware[] = []): Promise<ApolloApp> => {
    const { runs, root } = countingRoot();
    const apollo = new ApolloServer({ schema, rootValue: root, cache: 'bounded', includeStacktraceInErrorResponses: false, ...apolloOptions });
    await apollo.start();
    const warnings: string[] = [];
    const logger = { info: () => undefined, warn: (line: string) => warnings.push(line), error: (line: string) => warnings.push(line) };
    const limiter: RateLimitMiddleware | undefined = config && createRateLimitMiddleware(config, { environment: 'development', logger, graphql: { schema: () => schema } });
    const app = startKoaApp([...before, ...(limiter ? [limiter] : []), bodyParser()], koaMiddleware(apollo) as unknown as Middleware);
    closers.push(() => (app.close(), limiter?.close(), apollo.stop()));
    const request = supertest.agent(app.server).set('apollo-require-preflight', '1');
    return { request, runs, limiter, warnings };
  };
}
