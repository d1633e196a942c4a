// The admin controllers answer a store that cannot be reached with 503 and a sentence, and refuse
// malformed reset requests with 400 before touching the store. Issue 28 item 5: the page opened
// during a store outage showed only the error; GET /usage's 503 now carries what needs no store.
import type { Context } from 'koa';
import { createRateLimitMiddleware, type RateLimitMiddleware } from '../../../server/src';
import { usageController } from '../../../server/src/admin-api/controllers';
import { closedPortUrl } from '../../fixtures/ports';

function fakeContext(body?: unknown): Context {
  return { query: {}, request: { body }, status: 404, body: undefined } as unknown as Context;
}

let limiter: RateLimitMiddleware;
beforeAll(async () => {
  limiter = createRateLimitMiddleware({ url: await closedPortUrl(), token: 't', strategy: [{ methods: ['GET'], path: '/api/*', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 1, window: '1m' } }] });
});
afterAll(() => limiter.close());

it('answers GET /usage with 503 and a message when the store is down', async () => {
  const ctx = fakeContext();
  await usageController(() => limiter).read(ctx);
  expect(ctx.status).toBe(503);
  const error = (ctx.body as { error: { status: number; name: string; message: string } }).error;
  expect(error).toMatchObject({ status: 503, name: 'StoreUnavailableError' });
  expect(error.message).toMatch(/^The rate-limit store cannot be reached: /);
  expect(error.message).not.toMatch(/\n\s+at /);
});

it('answers POST /reset with 503 when the store is down', async () => {
  const ctx = fakeContext({ strategy: 0, identifier: '10.0.0.1' });
  await usageController(() => limiter).reset(ctx);
  expect(ctx.status).toBe(503);
});

it.each([
  [{ identifier: 'x' }, /^strategy must be the index of a configured strategy \(0 to 0\)$/],
  [{ strategy: 1, identifier: 'x' }, /^strategy must be/],
  [{ strategy: 0 }, /^identifier must be a caller identifier/],
  [{ strategy: 0, identifier: 'GET:/api/*:x' }, /^identifier must be a caller identifier/],
])('refuses the reset body %p with 400', async (body, message) => {
  const ctx = fakeContext(body);
  await usageController(() => limiter).reset(ctx);
  expect(ctx.status).toBe(400);
  expect((ctx.body as { error: { message: string } }).error.message).toMatch(message);
});

describe('the page opened during a store outage shows what needs no store', () => {
  it("GET /usage's 503 carries what needs no store: the configured strategies and this instance's fail-open count", async () => {
    const ctx = fakeContext();
    await usageController(() => limiter).read(ctx);
    const { details } = (ctx.body as { error: { details: unknown } }).error;
    expect(details).toEqual({
      report: {
        enabled: true,
        store: limiter.store,
        prefix: '@cms',
        analyticsEnabled: false,
        generatedAt: expect.any(Number),
        failOpen: limiter.failOpen(),
        strategies: [
          {
            index: 0,
            methods: ['GET'],
            path: '/api/*',
            algorithm: 'fixed-window',
            tokens: 1,
            window: '1m',
            identifierSource: 'ip',
            debug: false,
            mode: 'enforce',
            runtimeChangeable: ['tokens'],
            configOnly: ['algorithm', 'window', 'refillRate', 'methods', 'path', 'identifierSource', 'mode', 'tiers'],
          },
        ],
      },
    });
  });
});
