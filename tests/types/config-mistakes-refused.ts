// Type test, compiled by `npm run typecheck` and never run: the mistakes TypeScript refuses in a
// config before Strapi boots (issue 16 item 2; issue 18 defect 3, when any value compiled). Each
// `@ts-expect-error` fails the type-check if the line below it stops being an error.
import { createRateLimitMiddleware, type RateLimitConfigInput } from '../../server/src';

type Strategy = NonNullable<RateLimitConfigInput['strategy']>[number];

export const accepted: Strategy[] = [
  { methods: ['GET', 'post'], path: '/api/articles/:id', identifierSource: 'header.x-api-key', limiter: { algorithm: 'token-bucket', tokens: 10, refillRate: 1, window: '1.5m' } },
  { methods: ['ALL'], path: '*', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 100, window: '20 s' } },
  { methods: ['GET'], path: '/api', identifierSource: 'ip', mode: 'shadow', limiter: { algorithm: 'fixed-window', tokens: 5, window: '20s' } },
  // Issue 30: tiers by API token type, role type and anonymous.
  {
    methods: ['GET'],
    path: '/api',
    identifierSource: 'user',
    limiter: { algorithm: 'token-bucket', tokens: 60, window: '1m' },
    tiers: { apiTokens: { 'read-only': { tokens: 100 }, 'full-access': { tokens: 1000, refillRate: 500 }, custom: { tokens: 10 } }, roles: { authenticated: { tokens: 600 }, partner: { tokens: 6000 } }, anonymous: { tokens: 60 } },
  },
];

export const refused: Strategy[] = [
  // @ts-expect-error: `tokenz` is not a limiter field.
  { methods: ['GET'], path: '/api', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokenz: 5, window: '20s' } },
  // @ts-expect-error: a window is `<number><unit>`, not words.
  { methods: ['GET'], path: '/api', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 5, window: '20 sec' } },
  // @ts-expect-error: the algorithm is written `sliding-window`.
  { methods: ['GET'], path: '/api', identifierSource: 'ip', limiter: { algorithm: 'slidingWindow', tokens: 5, window: '20s' } },
  // @ts-expect-error: not a method.
  { methods: ['FETCH'], path: '/api', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 5, window: '20s' } },
  // @ts-expect-error: a path starts with `/` (or is `*`).
  { methods: ['GET'], path: 'api/articles', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 5, window: '20s' } },
  // @ts-expect-error: the identifier source is `ip`, `user` or `header.<NAME>`.
  { methods: ['GET'], path: '/api', identifierSource: 'x-api-key', limiter: { algorithm: 'fixed-window', tokens: 5, window: '20s' } },
  // @ts-expect-error: a mode is `enforce` or `shadow`.
  { methods: ['GET'], path: '/api', identifierSource: 'ip', mode: 'dry-run', limiter: { algorithm: 'fixed-window', tokens: 5, window: '20s' } },
  // @ts-expect-error: issue 30, a misspelt tier: `anonymus` is not a tier.
  { methods: ['GET'], path: '/api', identifierSource: 'user', limiter: { algorithm: 'fixed-window', tokens: 5, window: '20s' }, tiers: { anonymus: { tokens: 60 } } },
  // @ts-expect-error: issue 30, API token types are read-only, full-access and custom.
  { methods: ['GET'], path: '/api', identifierSource: 'user', limiter: { algorithm: 'fixed-window', tokens: 5, window: '20s' }, tiers: { apiTokens: { readonly: { tokens: 60 } } } },
  // @ts-expect-error: issue 30, a tier changes the tokens: its algorithm and window are the strategy's.
  { methods: ['GET'], path: '/api', identifierSource: 'user', limiter: { algorithm: 'fixed-window', tokens: 5, window: '20s' }, tiers: { anonymous: { tokens: 60, window: '1m' } } },
];

// @ts-expect-error: the top-level mode is `enforce` or `shadow` too.
export const refusedMode: RateLimitConfigInput = { mode: 'observe' };

export const koaMiddleware = () =>
  // @ts-expect-error: issue 18 defect 3, the Koa API took any value; tokens is a number, and `colour` is no option.
  createRateLimitMiddleware({ url: 'http://127.0.0.1:8079', token: 't', colour: 'red', strategy: [{ methods: ['GET'], path: '/api', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: '5', window: 10 } }] });
