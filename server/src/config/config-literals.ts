// The literal forms of the config's string fields, so that a config's TypeScript type says what
// validation will say: editors complete methods, algorithms, windows and identifier sources, and tsc
// refuses `algorithm: 'slidingWindow'` or `window: '20 sec'` before Strapi boots. The zod schema
// (schema.ts) still validates every config at run time (JavaScript configs, values read from the
// environment) and types its fields with these through `typedAs`.
import type { z } from 'zod';
import type { DurationUnit } from './duration';

export const METHODS = ['GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'ALL'] as const;
export const ALGORITHMS = ['fixed-window', 'sliding-window', 'token-bucket'] as const;
/** enforce: refuse past the limit; shadow: count and log would-be refusals, never refuse (docs/shadow-mode.md). */
export const MODES = ['enforce', 'shadow'] as const;
/** The types of Strapi's content-API tokens, each a tier of its own (docs/tiers.md). */
export const API_TOKEN_TYPES = ['read-only', 'full-access', 'custom'] as const;

export type Method = (typeof METHODS)[number];
export type Algorithm = (typeof ALGORITHMS)[number];
export type Mode = (typeof MODES)[number];
export type ApiTokenType = (typeof API_TOKEN_TYPES)[number];
/** Any letter case is accepted at run time; the type offers the two usual ones. */
export type MethodName = Method | Lowercase<Method>;
/** `<number><unit>`, e.g. `20s`, `1.5m` (a space before the unit is accepted too). */
export type WindowText = `${number}${DurationUnit}` | `${number} ${DurationUnit}`;
export type IdentifierSource = 'ip' | 'user' | `header.${string}`;
/** `*` for every content-API route, otherwise a path starting with `/`. */
export type StrategyPath = '*' | `/${string}`;

/**
 * Types a string schema as the literal forms it accepts, for both its input and its output. Only
 * the type changes: the schema's own checks (and their messages) still decide at run time.
 */
export const typedAs =
  <Literal extends string>() =>
  (schema: z.ZodType<string>): z.ZodType<Literal, Literal> =>
    schema as unknown as z.ZodType<Literal, Literal>;
