// The router Strapi routes with (@koa/router, resolved from @strapi/core so a Strapi upgrade that
// changes it changes what the equivalence tests compare against), typed for what the tests use.
import path from 'node:path';
import type { Middleware } from 'koa';

export interface StrapiRouter {
  get(routePath: string, handler: Middleware): StrapiRouter;
  match(requestPath: string, method: string): { route: boolean; pathAndMethod: { path: string }[] };
  routes(): Middleware;
}

type RouterConstructor = new (options?: { prefix?: string }) => StrapiRouter;

const strapiCore = path.dirname(require.resolve('@strapi/core/package.json'));
const Router = require(require.resolve('@koa/router', { paths: [strapiCore] })) as RouterConstructor;

/** A router like Strapi's content API: routes under `prefix` (Strapi's is `/api`). */
export const createStrapiRouter = (prefix: string): StrapiRouter => new Router({ prefix });
