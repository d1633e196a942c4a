// Validates a user's config against the schema and applies the defaults, or throws one
// RateLimitConfigError listing every problem. The schema cannot know the environment: production
// (NODE_ENV=production, which is also Strapi's `strapi.config.environment`) needs the store's url
// and token, while development without a url runs the embedded store (limiter/open-store.ts).
import { describeIssues, RateLimitConfigError } from './errors';
import { configSchema, type RateLimitConfig } from './schema';
import { hiddenRoleProblems } from './tiers';

/** The environment as Strapi reads it: NODE_ENV, development when unset. */
export const currentEnvironment = (): string => process.env.NODE_ENV || 'development';

/** What production needs that the schema lets development leave out. */
function missingInProduction(config: RateLimitConfig, environment: string): string[] {
  if (!config.enabled || environment !== 'production' || config.url !== undefined) return [];
  const problems = ['url: is required in production (the key-value REST URL; development without one runs an embedded in-memory store)'];
  if (config.token === undefined) problems.push('token: is required in production (the key-value REST token)');
  return problems;
}

export function parseConfig(input: unknown, environment = currentEnvironment()): RateLimitConfig {
  const result = configSchema.safeParse(input ?? {});
  // What parsing would drop unseen is read from the input as written.
  const hidden = hiddenRoleProblems(input);
  if (!result.success || hidden.length > 0) throw new RateLimitConfigError([...hidden, ...(result.success ? [] : describeIssues(result.error.issues))]);
  const missing = missingInProduction(result.data, environment);
  if (missing.length > 0) throw new RateLimitConfigError(missing);
  return result.data;
}
