// Tiers: a strategy's limits by who is calling (docs/tiers.md). A `user` strategy classes each
// request's caller once, from its verified principal: an API token by its type, a users-permissions
// user by its role's type, and a request with no valid credential as anonymous. The caller gets the
// tier its class names, else the strategy's own `limiter`. A tier changes the tokens only: the
// algorithm and the window are the strategy's, so one caller keeps one counter (one key,
// `<prefix>:<method>:<route>:<identifier>:<limiter>`) whatever its tier, and a caller whose tier
// changes keeps its count and meets the new limit at once.
import type { ApiTokenType } from './config-literals';

/** A tier's limit as written: tokens per the strategy's window, and for a token bucket its refill. */
export interface TierLimitInput {
  readonly tokens: number;
  readonly refillRate?: number;
}

/** The `tiers` of a strategy as written (schema.ts validates it). */
export interface TiersInput {
  readonly apiTokens?: Partial<Record<ApiTokenType, TierLimitInput>>;
  readonly roles?: Readonly<Record<string, TierLimitInput>>;
  readonly anonymous?: TierLimitInput;
}

/**
 * What a caller is, as a tier name: `apiTokens.<type>`, `roles.<role type>` or `anonymous`; the
 * same text is the tier's path under `tiers` in the config, in the usage view and in debug lines.
 */
export type CallerClass = `apiTokens.${string}` | `roles.${string}` | 'anonymous';

/** The name of callers no tier names: they get the strategy's `limiter`. */
export const DEFAULT_TIER = 'limiter';

/** A strategy's tiers in the documented order (API tokens, roles, anonymous) with their names. */
export function tierEntries(tiers: TiersInput | undefined): Array<[CallerClass, TierLimitInput]> {
  if (tiers === undefined) return [];
  const entries: Array<[CallerClass, TierLimitInput]> = [];
  for (const [type, limit] of Object.entries(tiers.apiTokens ?? {})) if (limit) entries.push([`apiTokens.${type}`, limit]);
  for (const [type, limit] of Object.entries(tiers.roles ?? {})) entries.push([`roles.${type}`, limit]);
  if (tiers.anonymous) entries.push(['anonymous', tiers.anonymous]);
  return entries;
}
