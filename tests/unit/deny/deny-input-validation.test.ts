// The deny-list admin API refuses every bad input with a 400 in Strapi's error shape that says what
// is wrong, before any store call (the limiter here points at a port where no store listens, so a
// request that got as far as the store would answer 503 instead). It names a headerHashSecret, so
// hashing a header value needs no key from the store (which would otherwise be read first: a 503).
import type { Context } from 'koa';
import { denyController } from '../../../server/src/admin-api/deny-controller';
import { createRateLimitMiddleware } from '../../../server/src/create-middleware';

const limiter = createRateLimitMiddleware(
  {
    url: 'http://127.0.0.1:9',
    token: 'unused',
    headerHashSecret: 'a deployment secret of 32 or more characters',
    allowList: ['203.0.113.7', '10.0.0.0/8', 'header.x-api-key:partner-key', 'header.x-caller:office'],
    strategy: [
      { methods: ['GET'], path: '/a', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 1, window: '1m' } },
      { methods: ['GET'], path: '/b', identifierSource: 'header.X-Caller', limiter: { algorithm: 'fixed-window', tokens: 1, window: '1m' } },
      { methods: ['GET'], path: '/c', identifierSource: 'header.x-api-key', limiter: { algorithm: 'fixed-window', tokens: 1, window: '1m' } },
    ],
  },
  { logger: { info: () => undefined, warn: () => undefined } },
);
afterAll(() => limiter.close());

const controller = denyController(() => limiter);

async function answer(action: 'deny' | 'lift', body: unknown): Promise<[number | undefined, unknown]> {
  const ctx = { request: { body }, state: { user: { email: 'admin@example.com' } }, status: undefined, body: undefined } as unknown as Context;
  await controller[action](ctx);
  return [ctx.status, ctx.body];
}

const badRequest = (message: string) => [400, { data: null, error: { status: 400, name: 'ValidationError', message, details: {} } }];
const ONE_FORM = 'give exactly one of {ip}, {header, value} or {strategy, identifier}, and optionally a duration';

describe('deny-list input validation', () => {
  it.each([
    ['no body', undefined, 'the body must be a JSON object'],
    ['an array', ['203.0.113.9'], 'the body must be a JSON object'],
    ['no caller', { duration: '1h' }, ONE_FORM],
    ['two forms', { ip: '203.0.113.9', header: 'x-caller', value: 'a' }, ONE_FORM],
    ['an ip that is not one', { ip: '203.0.113.999' }, 'ip must be an IPv4 or IPv6 address'],
    ['an ip that is a number', { ip: 203 }, 'ip must be a non-empty string'],
    ['a subnet', { ip: '203.0.113.0/24' }, 'ip must be an IPv4 or IPv6 address'],
    ['an over-long ip', { ip: '1'.repeat(65) }, 'ip must be at most 64 characters'],
    ['an unknown header', { header: 'x-other', value: 'a' }, 'header must be one that a strategy identifies callers by (x-caller, x-api-key)'],
    ['a header without a value', { header: 'x-caller' }, 'value must be a non-empty string'],
    ['a value with a line break', { header: 'x-caller', value: 'a\r\nb' }, 'value must not contain control characters'],
    ['an over-long value', { header: 'x-caller', value: 'v'.repeat(1025) }, 'value must be at most 1024 characters'],
    ['a strategy index out of range', { strategy: 3, identifier: 'a' }, 'strategy must be the index of a configured strategy (0 to 2)'],
    ['a strategy index that is a string', { strategy: '1', identifier: 'a' }, 'strategy must be the index of a configured strategy (0 to 2)'],
    ['a fractional strategy index', { strategy: 0.5, identifier: 'a' }, 'strategy must be the index of a configured strategy (0 to 2)'],
    ['an identifier with a colon', { strategy: 1, identifier: 'a:b' }, 'identifier must be a caller identifier as listed by GET /ratelimit/usage'],
    ['an identifier with a glob', { strategy: 1, identifier: 'a*' }, 'identifier must be a caller identifier as listed by GET /ratelimit/usage'],
    ['an over-long identifier', { strategy: 1, identifier: 'a'.repeat(139) }, 'identifier must be at most 138 characters'],
    ['a duration of no unit', { ip: '203.0.113.9', duration: '10' }, 'duration must be <number><unit> with unit s, m, h or d (for example 1h or 1d), from 1s to 365d'],
    ['a duration under a second', { ip: '203.0.113.9', duration: '500ms' }, 'duration must be <number><unit> with unit s, m, h or d (for example 1h or 1d), from 1s to 365d'],
    ['a duration over a year', { ip: '203.0.113.9', duration: '366d' }, 'duration must be <number><unit> with unit s, m, h or d (for example 1h or 1d), from 1s to 365d'],
    ['a duration that is a number', { ip: '203.0.113.9', duration: 3600 }, 'duration must be <number><unit> with unit s, m, h or d (for example 1h or 1d), from 1s to 365d'],
    ['an allow-listed address', { ip: '203.0.113.7' }, '203.0.113.7 is on the allow-list, which admits it before any check: remove it from allowList first'],
    ['an address in an allow-listed subnet', { ip: '10.1.2.3' }, '10.1.2.3 is on the allow-list, which admits it before any check: remove it from allowList first'],
    ['an allow-listed header value', { header: 'x-caller', value: 'office' }, 'header.x-caller:office is on the allow-list, which admits it before any check: remove it from allowList first'],
    ['an allow-listed hashed header value', { header: 'x-api-key', value: 'partner-key' }, expect.stringMatching(/^header\.x-api-key:hmac=[\w-]+ is on the allow-list/)],
    ['an allow-listed caller as listed', { strategy: 0, identifier: '203.0.113.7' }, '203.0.113.7 is on the allow-list, which admits it before any check: remove it from allowList first'],
  ])('deny: %s is a 400', async (_case, body, message) => {
    expect(await answer('deny', body)).toEqual(badRequest(message as string));
  });

  it.each([
    ['no member', {}, 'member must be a non-empty string'],
    ['an empty member', { member: '' }, 'member must be a non-empty string'],
    ['a member that is no string', { member: 7 }, 'member must be a non-empty string'],
    ['an over-long member', { member: 'm'.repeat(16 * 1024 + 1) }, 'member must be at most 16384 characters'],
  ])('lift: %s is a 400', async (_case, body, message) => {
    expect(await answer('lift', body)).toEqual(badRequest(message));
  });

  it('valid input reaches the store, which answers 503 here', async () => {
    const [status, body] = await answer('deny', { ip: '203.0.113.9', duration: '1h' });
    expect([status, (body as { error: { name: string } }).error.name]).toEqual([503, 'StoreUnavailableError']);
  });
});
