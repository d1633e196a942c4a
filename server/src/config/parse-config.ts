// Validates a user's config against the schema and applies the defaults, or throws one
// RateLimitConfigError listing every problem. The schema cannot know the environment: production
// (NODE_ENV=production, which is also Strapi's `strapi.config.environment`) needs the store's url
// (the schema asks a REST url's token), while development without a url runs the embedded store
// (store/open-store.ts).
import { describeIssues, RateLimitConfigError } from './errors';
import { configSchema, type RateLimitConfig } from './schema';
import { hiddenRoleProblems } from './tiers';

/** The environment as Strapi reads it: NODE_ENV, development when unset. */
export const currentEnvironment = (): string => process.env.NODE_ENV || 'development';

/** The three kinds of store a production url names, and what each takes. */
const PRODUCTION_STORES =
  'a key-value REST url with its token (https://<db>.upstash.io, or the key-value server at http://host:port), ' +
  'a Redis url (redis://[user:password@]host:6379[/db], rediss:// for TLS; no token), ' +
  'or a Sentinel or Cluster url (redis+sentinel://host:port,host:port/<master name>, redis+cluster://host:port,host:port)';

/** What production needs that the schema lets development leave out. */
function missingInProduction(config: RateLimitConfig, environment: string): string[] {
  if (!config.enabled || environment !== 'production' || config.url !== undefined) return [];
  return [`url: is required in production: ${PRODUCTION_STORES}; development without one runs an embedded in-memory store`];
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
