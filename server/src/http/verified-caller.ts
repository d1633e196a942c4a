// The `user` identifier source: a caller proven by a credential the app itself verifies (Strapi's
// users-permissions JWT or an API token, see strapi/verify-caller.ts) is limited as that principal,
// whatever IP it comes from; anyone else (no credential, an invalid, expired or forged one) by IP.
// The verification runs at most once per request, however many `user` strategies match it.
import type { Context } from 'koa';

/** A principal the app has verified: a user (`user=<id>` in keys) or an API token (`token=<id>`). */
export interface VerifiedCaller {
  readonly kind: 'user' | 'token';
  readonly id: string;
  /**
   * What picks its tier (docs/tiers.md), when known: a user's users-permissions role type
   * (`authenticated`, `partner`), an API token's type (`read-only`, `full-access`, `custom`).
   */
  readonly type?: string;
}

/**
 * Resolves the request's verified principal, or undefined when it has none (or it does not verify).
 * `ip` is the request's IP as the limiter keys it, for a verifier that bounds its work per caller.
 */
export type CallerVerifier = (ctx: Context, ip: string) => Promise<VerifiedCaller | undefined>;

export const USER_SOURCE = 'user';
