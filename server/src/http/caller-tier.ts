// Which of a strategy's limits a request's caller gets (docs/tiers.md): the caller is classed once
// per request from its verified principal (an API token by its type, a user by its role's type, no
// valid credential as anonymous), and a strategy gives the tier of that class when it names one,
// else its own limiter. The classes are disjoint, so the documented order (API tokens, roles,
// anonymous, then the limiter) is the order in which they are tried, and exactly one applies.
import type { CallerClass } from '../config/tiers';
import type { CompiledRule, TierLimiter } from './compile-strategies';
import type { VerifiedCaller } from './verified-caller';

/** The class of a request's caller; undefined for a principal whose type is not known (it gets the strategy's limiter). */
export function callerClass(verified: VerifiedCaller | undefined): CallerClass | undefined {
  if (verified === undefined) return 'anonymous';
  if (verified.type === undefined) return undefined;
  return verified.kind === 'token' ? `apiTokens.${verified.type}` : `roles.${verified.type}`;
}

/** The limit `rule` gives a caller of class `caller`. */
export function tierFor(rule: CompiledRule, caller: CallerClass | undefined): TierLimiter {
  return (caller !== undefined && rule.tierLimiters.get(caller)) || rule.own;
}
