// The matcher against Strapi's own router (@koa/router on path-to-regexp, as Strapi resolves it), on
// generated routes and request paths: a strategy written as the route, with or without a trailing
// slash, matches exactly what the router sends to the route written either way (so the slash is no
// part of a strategy's keys: config/canonical-path.ts), and every strategy path with `*` covering the
// route counts all of it too.
import fc from 'fast-check';
import { parsePathPattern } from '../../../server/src/config/path-pattern';
import { compilePathMatcher, DEFAULT_CONTENT_API_PREFIXES, type PathMatcher } from '../../../server/src/http/match';
import { anyRequestPathFor, route, routePath, ROUTE_PREFIX, starPathsCovering, type RouteSegments } from '../../support/route-arbitraries';
import { createStrapiRouter } from '../../support/strapi-router';

function strategyMatcher(path: string): PathMatcher {
  const pattern = parsePathPattern(path);
  if (pattern.kind === 'invalid') throw new Error(`${path}: ${pattern.problem}`);
  return compilePathMatcher(pattern, DEFAULT_CONTENT_API_PREFIXES);
}

/** Whether Strapi's router sends a GET of `requestPath` to the route (`alsoSlashed`: or to the route written with a trailing slash). */
function routerRoutes(segments: RouteSegments, alsoSlashed = false): (requestPath: string) => boolean {
  const router = createStrapiRouter(ROUTE_PREFIX).get(`/${segments.join('/')}`, () => undefined);
  if (alsoSlashed) router.get(`/${segments.join('/')}/`, () => undefined);
  return (requestPath) => router.match(requestPath, 'GET').route;
}

const routeAndRequest = route(false).chain((segments) => fc.tuple(fc.constant(segments), anyRequestPathFor(segments)));

describe('router equivalence', () => {
  it('a strategy written as the route, with or without a trailing slash, matches exactly the request paths the router sends to the route written either way', () => {
    let routed = 0;
    fc.assert(
      fc.property(routeAndRequest, ([segments, requestPath]) => {
        const sent = routerRoutes(segments, true)(requestPath);
        if (sent) routed++;
        expect([strategyMatcher(routePath(segments))(requestPath), strategyMatcher(`${routePath(segments)}/`)(requestPath)]).toEqual([sent, sent]);
      }),
      { numRuns: 1500 },
    );
    // The generators aim at the route: about 30% of runs are routed (a floor far below that, so a
    // generator that stopped reaching the route fails here instead of passing without checking).
    expect(routed).toBeGreaterThan(300);
  });

  it('every strategy path with * covering the route, and a lone *, counts every request the router sends to it', () => {
    fc.assert(
      fc.property(routeAndRequest, ([segments, requestPath]) => {
        fc.pre(routerRoutes(segments)(requestPath));
        const uncounted = ['*', ...starPathsCovering(segments)].filter((path) => !strategyMatcher(path)(requestPath));
        expect(uncounted).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });
});
