// The dynamic limit every single-region @upstash/ratelimit script reads first: `KEYS[n]`, when given
// and not empty, names a key whose number replaces the default limit (Ratelimit's dynamicLimits).
import { type NativeRun } from './native-run';

/** True when the script may run natively as far as the dynamic limit goes (a plain number or nothing stored). */
export function dynamicLimitIsPlain(run: NativeRun, dynamicLimitKey: string | undefined): boolean {
  return !dynamicLimitKey || run.holdsPlainNumberOrNothing(dynamicLimitKey);
}

/** `effectiveLimit`: the stored dynamic limit when there is one, else the default; `line` is the script's GET. */
export function effectiveLimit(run: NativeRun, dynamicLimitKey: string | undefined, defaultLimit: number, line: number): number {
  if (!dynamicLimitKey) return defaultLimit;
  const stored = run.call(line, 'GET', dynamicLimitKey);
  return stored === false ? defaultLimit : Number(stored);
}
