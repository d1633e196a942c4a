// Gives back the tokens a refused request took from the strategies that admitted it, so a caller
// blocked by one strategy does not drain its other budgets (a burst window refusing must not spend
// the sustained window). @upstash/ratelimit takes a negative `rate` as a refund in all three
// algorithms: fixed-window INCRBYs the current window's counter by -1; sliding-window skips its
// limit check and INCRBYs the current window by -1; token-bucket skips its refusal and adds one
// token. A refund is exact only while the window (or, for the bucket, the refill interval) in which
// the token was taken is still current: the refund lands in the current one, so after the reset it
// would grant a token that was never taken (or push a full bucket past its size). Then nothing is
// given back, which is what the algorithm itself would have ended with. A GraphQL request takes as
// many tokens as its count or cost (docs/graphql.md), and gets as many back.
import type { Ratelimit } from '@upstash/ratelimit';

/** A token one strategy's limiter took for a request that was then refused. */
export interface TakenToken {
  /** The limiter that took it (a tier's, docs/tiers.md, gives a bucket's token back under the tier's size). */
  readonly limiter: Ratelimit;
  readonly limiterKey: string;
  /** The reset of the window (or refill interval) it was taken in, ms epoch. */
  readonly reset: number;
  /** How many tokens it took (1 for a request; a GraphQL request's count or cost). */
  readonly tokens: number;
}

/**
 * Gives every token back whose window is still current; store failures are ignored (the refund is a
 * courtesy). The limiters record no analytics: a refund is not a request.
 */
export async function giveBack(tokens: readonly TakenToken[]): Promise<void> {
  const now = Date.now();
  const refunds = tokens.filter((token) => now < token.reset).map((token) => token.limiter.limit(token.limiterKey, { rate: -token.tokens }));
  await Promise.allSettled(refunds);
}
