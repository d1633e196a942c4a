// The plugin's configuration, described once with zod: it gives the TypeScript types, the defaults,
// Strapi's config validator and strategy-schema.json. Messages say what is wrong and how to fix it.
import { z } from 'zod';
import { DURATION_FORMAT, parseDuration } from './duration';

export const METHODS = ['GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'ALL'] as const;
export const ALGORITHMS = ['fixed-window', 'sliding-window', 'token-bucket'] as const;
const CAMEL_CASE_ALGORITHMS: Record<string, string> = { tokenBucket: 'token-bucket', fixedWindow: 'fixed-window', slidingWindow: 'sliding-window' };
const IDENTIFIER_SOURCE = /^(ip|header\.[A-Za-z0-9!#$%&'*+.^_`|~-]+)$/;

const quote = (value: unknown): string => JSON.stringify(value) ?? String(value);

const method = z.string({ error: 'must be a string such as "GET"' }).refine((value) => (METHODS as readonly string[]).includes(value.toUpperCase()), {
  error: (issue) => `${quote(issue.input)} is not one of ${METHODS.join(', ')}`,
});

const algorithm = z.string({ error: `must be one of ${ALGORITHMS.join(', ')}` }).superRefine((value, context) => {
  if ((ALGORITHMS as readonly string[]).includes(value)) return;
  const hint = CAMEL_CASE_ALGORITHMS[value];
  context.addIssue({
    code: 'custom',
    message: hint ? `${quote(value)} is not accepted: write "${hint}"` : `${quote(value)} is not one of ${ALGORITHMS.join(', ')}`,
  });
});

const positiveInteger = (what: string) =>
  z.number({ error: `must be a number (${what})` }).int({ error: `must be a whole number (${what})` }).positive({ error: `must be greater than 0 (${what})` });

const window = z.string({ error: `must be a string, ${DURATION_FORMAT}` }).refine((value) => parseDuration(value) !== undefined, {
  error: (issue) => `${quote(issue.input)} is not ${DURATION_FORMAT}`,
});

export const limiterSchema = z.strictObject(
  {
    algorithm,
    tokens: positiveInteger('requests allowed per window'),
    window,
    refillRate: positiveInteger('tokens added per window, token-bucket only').optional(),
  },
  { error: 'must be an object with algorithm, tokens and window' },
);

export const strategySchema = z.strictObject(
  {
    methods: z.array(method, { error: `must be a list such as ["GET"] (items from ${METHODS.join(', ')})` }).min(1, { error: 'must name at least one method' }),
    path: z.string({ error: 'must be a string such as "/api/articles/:id" or "*"' }).refine((value) => value === '*' || value.startsWith('/'), {
      error: (issue) => `${quote(issue.input)} must start with "/" (or be "*" for every content-API route)`,
    }),
    identifierSource: z.string({ error: 'must be "ip" or "header.<HEADER_NAME>"' }).refine((value) => IDENTIFIER_SOURCE.test(value), {
      error: (issue) => `${quote(issue.input)} is not "ip" or "header.<HEADER_NAME>"`,
    }),
    debug: z.union([z.boolean(), z.enum(['true', 'false'])], { error: 'must be true or false' }).optional(),
    limiter: limiterSchema,
  },
  { error: 'must be an object with methods, path, identifierSource and limiter' },
);

const optionsShape = {
  enabled: z.boolean({ error: 'must be true or false' }).default(true),
  token: z.string({ error: 'must be the key-value REST token (a string)' }).min(1, { error: 'must not be empty' }).optional(),
  url: z.url({ protocol: /^https?$/, error: 'must be the http(s) REST URL of the key-value store' }).optional(),
  prefix: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).regex(/^[^\s*?[\]\\]+$/, { error: 'must not contain spaces or the glob characters * ? [ ] \\' }).default('@cms'),
  analytics: z.boolean({ error: 'must be true or false' }).default(false),
  strategy: z.array(strategySchema, { error: 'must be a list of strategies' }).default([]),
  timeout: z.number({ error: 'must be a number of milliseconds' }).int().positive().max(60_000).default(300),
  failureMode: z.enum(['open', 'closed'], { error: 'must be "open" (let requests through when the store fails) or "closed" (answer 503)' }).default('open'),
  headers: z.enum(['standard', 'legacy', 'both', 'none'], { error: 'must be "standard", "legacy", "both" or "none"' }).default('standard'),
  allowList: z.array(z.string({ error: 'must be a string' }), { error: 'must be a list of identifiers' }).default([]),
  ipv6Subnet: z.number({ error: 'must be a prefix length' }).int().min(1).max(128).default(64),
  blockedCacheSize: z.number({ error: 'must be a number of entries' }).int().min(0).default(10_000),
};

export const configSchema = z.strictObject(optionsShape, { error: 'must be an object' }).superRefine((config, context) => {
  if (!config.enabled) return;
  for (const field of ['url', 'token'] as const) {
    if (config[field] === undefined) context.addIssue({ code: 'custom', path: [field], message: `is required while the plugin is enabled (the key-value REST ${field === 'url' ? 'URL' : 'token'})` });
  }
});

/** The config as users write it. */
export type RateLimitConfigInput = z.input<typeof configSchema>;
/** The config with defaults applied. */
export type RateLimitConfig = z.output<typeof configSchema>;
export type StrategyConfig = z.output<typeof strategySchema>;
export type Method = (typeof METHODS)[number];
export type Algorithm = (typeof ALGORITHMS)[number];
