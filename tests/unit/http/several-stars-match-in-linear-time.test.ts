// Finding 3: strategy paths with several `*` (and parameters between them) once backtracked, so a
// 4 KB path froze the event loop for seconds. The middleware now decides on a 64 KB path that its
// strategy does not match in well under the bound; the 2 KB path first makes the old code fail in
// about a second instead of hanging for ever.
import type { Context } from 'koa';
import { createRateLimitMiddleware, type StrategyPath } from '../../../server/src';

const ADVERSARIAL: [strategyPath: StrategyPath, requestPath: (length: number) => string][] = [
  ['/api/*/*/*/x', (length) => `/api${'/a'.repeat(length / 2)}`],
  ['/api/*a*a*a*a*a*a*a*a*a*b', (length) => `/api/${'a'.repeat(length)}`],
  ['/api/*/:id/*/:other/x', (length) => `/api${'/a'.repeat(length / 2)}`],
  ['/api/*/:id/x', (length) => `/api/${'a'.repeat(length)}`],
  ['/api/*.json', (length) => `/api/${'a.jso'.repeat(length / 5)}`],
];

describe('matching cost', () => {
  it('finding 3: a path with several * is decided in linear time: a 64 KB path it does not match costs under 50 ms', async () => {
    // Each request matches no strategy, so the middleware passes it on.
    const passedThrough: string[] = [];
    for (const [strategyPath, requestPath] of ADVERSARIAL) {
      const limiter = createRateLimitMiddleware({
        url: 'http://127.0.0.1:9',
        token: 'unused: the strategy matches no request here, so the store is never called',
        strategy: [{ methods: ['GET'], path: strategyPath, identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 1, window: '1m' } }],
      });
      try {
        for (const length of [2 * 1024, 64 * 1024]) {
          const path = requestPath(length);
          // The best of three, so that a garbage collection pause on a busy machine does not count.
          let fastest = Infinity;
          for (let attempt = 0; attempt < 3 && fastest >= 50; attempt++) {
            const started = performance.now();
            await limiter({ method: 'GET', path } as Context, async () => {
              passedThrough.push(`${strategyPath} ${length}`);
            });
            fastest = Math.min(fastest, performance.now() - started);
          }
          expect({ strategyPath, length, fast: fastest < 50 }).toEqual({ strategyPath, length, fast: true });
        }
      } finally {
        limiter.close();
      }
    }
    expect([...new Set(passedThrough)]).toEqual(ADVERSARIAL.flatMap(([path]) => [`${path} 2048`, `${path} 65536`]));
  });
});
