// Rate-limit response headers: the IETF draft fields (`RateLimit-Policy`, `RateLimit`), the legacy
// `X-RateLimit-*` trio, both or none; and `Retry-After` on refusals. One function per header family.
import type { Context } from 'koa';

export type HeaderMode = 'standard' | 'legacy' | 'both' | 'none';

/** The tightest limit of a request: the strategy outcome with the fewest remaining tokens. */
export interface LimitState {
  readonly limit: number;
  readonly remaining: number;
  /** Reset time, ms epoch. */
  readonly reset: number;
  readonly windowSeconds: number;
}

const secondsUntil = (reset: number, now: number): number => Math.max(0, Math.ceil((reset - now) / 1000));

function setStandardHeaders(ctx: Context, state: LimitState, now: number): void {
  ctx.set('RateLimit-Policy', `${state.limit};w=${state.windowSeconds}`);
  ctx.set('RateLimit', `limit=${state.limit}, remaining=${state.remaining}, reset=${secondsUntil(state.reset, now)}`);
}

function setLegacyHeaders(ctx: Context, state: LimitState): void {
  ctx.set('X-RateLimit-Limit', String(state.limit));
  ctx.set('X-RateLimit-Remaining', String(state.remaining));
  ctx.set('X-RateLimit-Reset', String(Math.ceil(state.reset / 1000)));
}

export function setRateLimitHeaders(ctx: Context, mode: HeaderMode, state: LimitState, now: number): void {
  if (mode === 'standard' || mode === 'both') setStandardHeaders(ctx, state, now);
  if (mode === 'legacy' || mode === 'both') setLegacyHeaders(ctx, state);
}

export function setRetryAfter(ctx: Context, reset: number, now: number): void {
  ctx.set('Retry-After', String(Math.max(1, secondsUntil(reset, now))));
}
