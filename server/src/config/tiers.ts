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

/**
 * `__proto__` is no key an object keeps: JSON.parse makes it an own key, which zod's record (like any
 * assignment) skips, and in an object literal it sets the object's prototype instead: either way the
 * tier would vanish before the schema or the boot's role check could see it. So the roles are read
 * as written, before parsing. (`constructor` and `prototype` are kept as keys, and tiers are looked
 * up in a Map: ordinary role types.) Each problem names its field, as the schema's do.
 */
export function hiddenRoleProblems(input: unknown): string[] {
  const strategies = typeof input === 'object' && input !== null ? (input as { strategy?: unknown }).strategy : undefined;
  if (!Array.isArray(strategies)) return [];
  return strategies.flatMap((strategy: unknown, index) => {
    const tiers = typeof strategy === 'object' && strategy !== null ? (strategy as { tiers?: unknown }).tiers : undefined;
    const roles = typeof tiers === 'object' && tiers !== null ? (tiers as { roles?: unknown }).roles : undefined;
    if (typeof roles !== 'object' || roles === null || Array.isArray(roles)) return [];
    const field = `strategy[${index}].tiers.roles`;
    if (Object.hasOwn(roles, '__proto__')) return [`${field}.__proto__: "__proto__" is not a users-permissions role type: an object cannot keep it as a key`];
    const prototype: unknown = Object.getPrototypeOf(roles);
    if (prototype !== Object.prototype && prototype !== null) return [`${field}: must be a plain object keyed by role type: \`__proto__:\` in an object literal sets its prototype, it names no role`];
    return [];
  });
}
