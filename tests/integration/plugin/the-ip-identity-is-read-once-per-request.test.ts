// A request that several strategies limit by IP (directly, or as the fallback of a header strategy
// whose header it did not send) has its client address read and grouped once, not once per strategy.
import Koa from 'koa';
import supertest from 'supertest';
import { createRateLimitMiddleware } from '../../../server/src';
import { strategy } from './support';

it('reads ctx.request.ip once for three strategies that identify the caller by IP', async () => {
  let reads = 0;
  const limiter = createRateLimitMiddleware({
    strategy: [
      strategy({}, { algorithm: 'fixed-window', window: '1m' }),
      strategy({}, { algorithm: 'sliding-window', window: '1h' }),
      strategy({ identifierSource: 'header.x-api-key' }, { algorithm: 'token-bucket', window: '1h' }),
    ],
  });
  const app = new Koa();
  app.use((ctx, next) => {
    Object.defineProperty(ctx.request, 'ip', { get: () => ((reads += 1), '2001:db8::1') });
    return next();
  });
  app.use(limiter);
  app.use((ctx) => void (ctx.body = 'ok'));
  const server = app.listen(0, '127.0.0.1');
  try {
    const response = await supertest(server).get('/limited');
    expect([response.status, reads]).toEqual([200, 1]);
  } finally {
    server.close();
    limiter.close();
  }
});
