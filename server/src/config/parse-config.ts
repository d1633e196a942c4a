// Validates a user's config against the schema and applies the defaults, or throws one
// RateLimitConfigError listing every problem.
import { describeIssues, RateLimitConfigError } from './errors';
import { configSchema, type RateLimitConfig } from './schema';

export function parseConfig(input: unknown): RateLimitConfig {
  const result = configSchema.safeParse(input ?? {});
  if (!result.success) throw new RateLimitConfigError(describeIssues(result.error.issues));
  return result.data;
}
