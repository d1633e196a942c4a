// Config errors that a person can act on: every problem on its own line, led by the path of the
// offending field (`strategy[1].limiter.window: ...`), under one stable error code.
import type { z } from 'zod';
import { failureMessage } from '../failure-message';

export const CONFIG_ERROR_CODE = 'ERR_RATELIMIT_CONFIG';

export class RateLimitConfigError extends Error {
  readonly code = CONFIG_ERROR_CODE;

  constructor(readonly problems: readonly string[], options?: { cause?: unknown }) {
    super(`Invalid ratelimit plugin config:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`, options);
    this.name = 'RateLimitConfigError';
  }
}

/** `strategy[1].limiter.window` from zod's `['strategy', 1, 'limiter', 'window']`. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${String(part)}` : String(part)), '');
}

/**
 * Runs `build` (compiling part of a validated config), so that whatever it throws reaches the user
 * as a config error naming `field`, with the original error as its cause.
 */
export function asConfigError<T>(field: string, build: () => T): T {
  try {
    return build();
  } catch (failure) {
    if (failure instanceof RateLimitConfigError) throw failure;
    throw new RateLimitConfigError([`${field}: ${failureMessage(failure)}`], { cause: failure });
  }
}

export function describeIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => {
    const path = formatPath(issue.path);
    if (issue.code === 'unrecognized_keys') return `${path ? `${path}: ` : ''}unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')}`;
    return `${path || 'config'}: ${issue.message}`;
  });
}
