// Inside Strapi a 429 is @strapi/utils' RateLimitError with the refusing limit in its details, as
// Strapi's own rate limiters answer: thrown to Strapi's error middleware when that runs around the
// limiter, written in the same shape when the app placed the limiter ahead of it.
import { errors } from '@strapi/utils';
import type { Context } from 'koa';
import { strapiRefusal } from '../../../server/src/strapi/refusal';

const refusal = { status: 429, message: 'Too many requests, please try again later', limit: 5, remaining: 0, reset: 1_900_000_000_000 } as const;

it('throws a RateLimitError with limit, remaining and reset for Strapi\'s error middleware', () => {
  const ctx = {} as Context;
  let thrown: unknown;
  try {
    strapiRefusal(true)(ctx, refusal);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(errors.RateLimitError);
  expect(thrown).toMatchObject({ name: 'RateLimitError', message: refusal.message, details: { limit: 5, remaining: 0, reset: 1_900_000_000_000 } });
});

it('writes the same body itself when nothing around the limiter would catch the error', () => {
  const ctx = { status: 404, body: undefined } as unknown as Context;
  strapiRefusal(false)(ctx, refusal);
  expect([ctx.status, ctx.body]).toEqual([
    429,
    { data: null, error: { status: 429, name: 'RateLimitError', message: refusal.message, details: { limit: 5, remaining: 0, reset: 1_900_000_000_000 } } },
  ]);
});
