// Type test, compiled by `npm run typecheck` and never run (issue 35): a strategy is a route strategy
// or a GraphQL strategy, and TypeScript refuses a misspelt GraphQL key or the two forms mixed before
// Strapi boots. Each `@ts-expect-error` fails the type-check if the line below it stops being an error.
import { createRateLimitMiddleware, type RateLimitConfigInput } from '../../server/src';
import { buildSchema } from 'graphql';

type Strategy = NonNullable<RateLimitConfigInput['strategy']>[number];
const limiter = { algorithm: 'fixed-window', tokens: 5, window: '15m' } as const;

export const accepted: Strategy[] = [
  { graphql: { mutation: ['login', 'register', 'forgotPassword'] }, identifierSource: 'ip', limiter },
  { graphql: { query: ['articles', 'articles_connection'], charge: 'cost' }, identifierSource: 'user', tiers: { anonymous: { tokens: 100 } }, limiter: { algorithm: 'token-bucket', tokens: 1000, refillRate: 50, window: '1s' } },
  { graphql: { query: ['*'], mutation: ['*'], charge: 'cost' }, identifierSource: 'ip', mode: 'shadow', limiter },
  { methods: ['POST'], path: '/graphql', identifierSource: 'ip', limiter },
];

export const refused: Strategy[] = [
  // @ts-expect-error: `mutaton` is not an operation type.
  { graphql: { mutaton: ['login'] }, identifierSource: 'ip', limiter },
  // @ts-expect-error: a GraphQL strategy has no path: it counts at the GraphQL endpoint.
  { graphql: { mutation: ['login'] }, path: '/graphql', identifierSource: 'ip', limiter },
  // @ts-expect-error: nor methods.
  { graphql: { mutation: ['login'] }, methods: ['POST'], identifierSource: 'ip', limiter },
  // @ts-expect-error: Strapi serves no subscriptions.
  { graphql: { subscription: ['articleCreated'] }, identifierSource: 'ip', limiter },
  // @ts-expect-error: a charge is `count` or `cost`.
  { graphql: { query: ['articles'], charge: 'points' }, identifierSource: 'ip', limiter },
  // @ts-expect-error: root fields are a list.
  { graphql: { mutation: 'login' }, identifierSource: 'ip', limiter },
];

// @ts-expect-error: the document bounds are numbers.
export const refusedBounds: RateLimitConfigInput = { graphql: { maxDepth: '20' } };

export const koaMiddleware = () =>
  createRateLimitMiddleware(
    { strategy: [{ graphql: { mutation: ['login'] }, identifierSource: 'ip', limiter }], graphql: { maxAliases: 50, maxFragmentSpreads: 20, extensions: true } },
    { graphql: { endpoint: '/graphql', defaultLimit: 25, maxLimit: 100, schema: () => buildSchema('type Query { a: Int }') } },
  );
