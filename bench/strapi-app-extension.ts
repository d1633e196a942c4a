// Runs inside the Strapi child of a Strapi scenario (tests/fixtures/strapi-child.ts loads it once the
// app has booted): makes the scenario's credential in the app, places the peer for the peer's row,
// and answers the CPU meter's calls.
import type { Middleware } from 'koa';
import type { StrapiChildExtension } from '../tests/fixtures/strapi-child';
import { createAppMeter } from './app-meter';
import { createCredential, type BenchCredential } from './credentials';
import { rateLimiterFlexibleOnRedis } from './peer-middleware';
import { IDENTIFIER_HEADER, PEER_KEY_PREFIX } from './scenarios';

export interface StrapiAppInput {
  /** Every request of the load carries this valid credential, made in the app. */
  readonly credential?: BenchCredential;
  /** The peer (rate-limiter-flexible on ioredis) on the redis-server at this url, as the app's limiter (issue 36). */
  readonly peerRedisUrl?: string;
}

export interface StrapiAppExtra {
  /** Headers every request of the load sends: the scenario's credential, if it has one. */
  readonly headers: Readonly<Record<string, string>>;
}

/** The two members of Strapi's server (`strapi.server`, @strapi/core's services/server) that placing a middleware by hand needs. */
export interface StrapiServerParts {
  readonly app: { readonly middleware: Middleware[] };
  readonly router: object;
}

/**
 * Puts `middleware` where the plugin's own sits in Strapi: after the global middlewares
 * (config/middlewares) and whatever plugins `use`d, just before the router's dispatch. The plugin's
 * bootstrap calls `strapi.server.use(limiter)`, and Strapi mounts its router after every bootstrap;
 * the child's extension runs after that, so the router is there to be found (@koa/router marks its
 * dispatch with `.router`). Koa composes the list at the first request (Strapi's HTTP server makes
 * its handler lazily), which comes after the child's extension has run.
 */
export function placeBeforeRouter(server: StrapiServerParts, middleware: Middleware): void {
  const at = server.app.middleware.findIndex((layer) => (layer as { router?: unknown }).router === server.router);
  if (at < 0) throw new Error("Strapi's router is not among its Koa app's middleware: there is no place before it for the peer");
  server.app.middleware.splice(at, 0, middleware);
}

export const extendStrapiChild: StrapiChildExtension<StrapiAppInput, StrapiAppExtra> = async (strapi, { credential, peerRedisUrl }) => {
  if (peerRedisUrl) placeBeforeRouter(strapi.server as unknown as StrapiServerParts, rateLimiterFlexibleOnRedis(peerRedisUrl, PEER_KEY_PREFIX, IDENTIFIER_HEADER));
  const headers: Record<string, string> = credential ? { authorization: `Bearer ${await createCredential(strapi, credential)}` } : {};
  return { ready: { headers }, calls: createAppMeter().calls };
};
