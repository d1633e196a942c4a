// A strategy counts every request that Strapi's router (@koa/router) serves on its route, through the
// real middleware, a real store and real HTTP requests with raw request targets: encoded slashes in a
// parameter, encoded line breaks under `*`, and generated paths against generated routes.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import Koa from 'koa';
import { createRateLimitMiddleware, type RateLimitMiddleware, type StrategyPath } from '../../../server/src';
import { requestPathFor, route, routePath, ROUTE_PREFIX, starPathsCovering } from '../../support/route-arbitraries';
import { createStrapiRouter, type StrapiRouter } from '../../support/strapi-router';
import { type KvRestServer, startKvRestServer } from './support';

interface Exchange {
  readonly limiter: RateLimitMiddleware;
  readonly router: StrapiRouter;
}

describe('paths count what the router routes', () => {
  let kv: KvRestServer;
  let server: http.Server;
  let port: number;
  let current: Exchange;
  const agent = new http.Agent({ keepAlive: true });

  beforeAll(async () => {
    kv = await startKvRestServer();
    const app = new Koa();
    app.use((ctx, next) => current.limiter(ctx, next));
    app.use((ctx, next) => current.router.routes()(ctx, next));
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    agent.destroy();
    await new Promise((resolve) => server.close(resolve));
    await kv.close();
  });

  let prefixCounter = 0;
  /** The app now limits `strategyPath` (tokens per hour) and routes GET `routeSegments` under /api. */
  function serve(strategyPath: StrategyPath, routeSegments: readonly string[], tokens = 1000): Exchange {
    const limiter = createRateLimitMiddleware({
      url: kv.url,
      token: kv.token,
      prefix: `route${++prefixCounter}`,
      strategy: [{ methods: ['GET'], path: strategyPath, identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens, window: '1h' } }],
    });
    const router = createStrapiRouter(ROUTE_PREFIX).get(`/${routeSegments.join('/')}`, (ctx) => {
      ctx.body = 'served';
    });
    current = { limiter, router };
    return current;
  }

  /** A GET with `path` as the raw request target (no normalisation on the way). */
  function get(path: string): Promise<{ status: number; limited: boolean }> {
    return new Promise((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path, agent }, (response) => {
          response.resume();
          response.on('end', () => resolve({ status: response.statusCode ?? 0, limited: response.headers['ratelimit-policy'] !== undefined }));
        })
        .on('error', reject);
    });
  }

  const statusesOf = async (paths: readonly string[]): Promise<number[]> => {
    const statuses: number[] = [];
    for (const path of paths) statuses.push((await get(path)).status);
    return statuses;
  };

  it.each([
    ['finding 1: an encoded slash stays inside its :id segment, so /api/articles/x%2F0 ... count on /api/articles/:id', '/api/articles/:id', ['/api/articles/x%2F0', '/api/articles/x%2F1', '/api/articles/x%2f2']],
    ['finding 2: encoded line breaks (%0A, %0D, %E2%80%A8) are counted by /api/*', '/api/*', ['/api/articles/1%0A', '/api/articles/1%0D', '/api/articles/1%E2%80%A8']],
  ] as const)('%s', async (_finding, strategyPath, paths) => {
    const { limiter } = serve(strategyPath, ['articles', ':id'], 2);
    try {
      expect(await statusesOf(paths)).toEqual([200, 200, 429]);
    } finally {
      limiter.close();
    }
  });

  it('every request the router serves on a generated route is counted by the route, every * covering it and a lone *', async () => {
    let served = 0;
    const scenario = route(true).chain((segments) =>
      fc.tuple(fc.constant(segments), fc.constantFrom(routePath(segments), '*', ...starPathsCovering(segments)), requestPathFor(segments, true)),
    );
    await fc.assert(
      fc.asyncProperty(scenario, async ([segments, strategyPath, requestPath]) => {
        const { limiter } = serve(strategyPath, segments);
        try {
          const { status, limited } = await get(requestPath);
          if (status !== 200) return;
          served++;
          expect({ requestPath, strategyPath, limited }).toEqual({ requestPath, strategyPath, limited: true });
        } finally {
          limiter.close();
        }
      }),
      { numRuns: 150 },
    );
    // About 40% of the requests are served; the floor catches generators that stopped reaching the route.
    expect(served).toBeGreaterThan(30);
  });
});
