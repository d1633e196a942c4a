// Issue 36 (the Strapi target: app CPU added <= 10% of Strapi's own, p99 <= 1.5x): `npm run bench`
// has a Strapi row with the peer (rate-limiter-flexible on ioredis, the run's redis-server), placed
// where the plugin's own middleware sits, just before Strapi's router, so that what any limiter
// awaiting Redis adds to Strapi can be told from what the plugin adds. These tests prove the row,
// its baseline and store accounting, and the placing (on the router Strapi routes with).
import Koa, { type Middleware } from 'koa';
import supertest from 'supertest';
import type { AppSample } from '../../../bench/app-bench';
import { totalCpuPerDecision } from '../../../bench/decision-cpu';
import { APP_SCENARIOS, bareRowOf, needsRedis, selectScenarios } from '../../../bench/scenarios';
import { storeTransportOf } from '../../../bench/store-cost';
import { placeBeforeRouter, type StrapiServerParts } from '../../../bench/strapi-app-extension';
import { createStrapiRouter } from '../../support/strapi-router';
import { fixedRateRounds } from './support';

const PEER_IN_STRAPI = 'Strapi + the peer (rate-limiter-flexible on ioredis, the same redis-server)';

describe("the peer's row in Strapi", () => {
  it('runs the peer on the redis-server at the fixed moderate load, beside Strapi alone and the plugin over redis://', () => {
    const row = APP_SCENARIOS.find((scenario) => scenario.name === PEER_IN_STRAPI)!;
    expect([row.app, row.limiter, row.latency, needsRedis(row), storeTransportOf(row.limiter), bareRowOf(row, APP_SCENARIOS)?.name]).toEqual([
      'strapi',
      { kind: 'rate-limiter-flexible', store: 'redis' },
      true,
      true,
      'redis reads',
      'Strapi, no limiter',
    ]);
    expect(selectScenarios(APP_SCENARIOS, 'Strapi + the peer|Strapi + plugin sliding-window over redis://').map((scenario) => scenario.name)).toEqual([
      'Strapi, no limiter',
      'Strapi + plugin sliding-window over redis://',
      PEER_IN_STRAPI,
    ]);
  });

  it("counts its total per decision over Strapi alone's CPU, with the redis-server's", () => {
    const row = APP_SCENARIOS.find((scenario) => scenario.name === PEER_IN_STRAPI)!;
    const strapiAlone: AppSample[] = fixedRateRounds([900, 1000, 950], [0, 0, 0]);
    expect(totalCpuPerDecision(row, fixedRateRounds([1000, 1150, 1000], [30, 35, 40]), strapiAlone, 'fixed rate')).toEqual([130, 185, 90]);
  });
});

describe('placing a middleware where the plugin sits in Strapi', () => {
  /** A Koa app laid out as Strapi's server is once mounted: global middleware, then its router's dispatch. */
  const mountedLikeStrapi = (heard: string[]): StrapiServerParts & { app: Koa } => {
    const app = new Koa();
    const router = createStrapiRouter('/api');
    router.get('/ping', (ctx) => {
      heard.push('route');
      ctx.body = { ok: true };
    });
    app.use((_ctx, next) => {
      heard.push('global middleware');
      return next();
    });
    const dispatch = router.routes();
    app.use(dispatch);
    return { app, router: (dispatch as Middleware & { router: object }).router };
  };

  it('runs it after the global middleware and before the route, which answers without calling next', async () => {
    const heard: string[] = [];
    const server = mountedLikeStrapi(heard);
    placeBeforeRouter(server, (_ctx, next) => {
      heard.push('placed');
      return next();
    });
    const response = await supertest(server.app.callback()).get('/api/ping');
    expect([response.status, heard]).toEqual([200, ['global middleware', 'placed', 'route']]);
  });

  it('refuses an app whose router it cannot find, rather than placing it where it would never run', () => {
    const server = mountedLikeStrapi([]);
    expect(() => placeBeforeRouter({ app: server.app, router: {} }, (_ctx, next) => next())).toThrow(
      "Strapi's router is not among its Koa app's middleware: there is no place before it for the peer",
    );
  });
});
