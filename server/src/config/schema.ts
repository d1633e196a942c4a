// The plugin's configuration, described once with zod: it gives the TypeScript types, the defaults,
// Strapi's config validator and strategy-schema.json. Messages say what is wrong and how to fix it.
import { z } from 'zod';
import { MAX_DENY_CACHE_MS, MAX_HEADER_HASH_SECRET_LENGTH, MIN_HEADER_HASH_SECRET_LENGTH, MAX_KEY_LIFETIME_MS, MAX_TOKENS, MAX_WINDOW_DAYS, MAX_WINDOW_MS, tokenBucketKeyLifetime } from './bounds';
import { DURATION_FORMAT, DURATION_PATTERN, parseDuration } from './duration';
import { MAX_PATH_PATTERN_LENGTH, parsePathPattern } from './path-pattern';
import { strategiesSharingKeys } from './shared-keys';
import { routeOf } from './keys';
import { ALLOW_LIST_FORMAT, parseAllowListEntry } from './allow-list-entry';
import { isRestUrl, parseStoreUrl, STORE_URL_FORMS } from '../../../shared/store-address';

import { tierEntries } from './tiers';
import { graphqlBoundsSchema, graphqlSelectionSchema, strategyForms } from './graphql-schema';
import { ALGORITHMS, API_TOKEN_TYPES, METHODS, MODES, typedAs, type Algorithm, type IdentifierSource, type MethodName, type StrategyPath, type WindowText } from './config-literals';

export { ALGORITHMS, METHODS, MODES };
const CAMEL_CASE_ALGORITHMS: Record<string, string> = { tokenBucket: 'token-bucket', fixedWindow: 'fixed-window', slidingWindow: 'sliding-window' };
const IDENTIFIER_SOURCE = /^(ip|user|header\.[A-Za-z0-9!#$%&'*+.^_`|~-]+)$/;
// What parsePathPattern accepts, for editors reading strategy-schema.json.
const PATH = /^(\*|\/|(\/(:[A-Za-z0-9_]+|[^/()?+{}[\]\\:\s\u0000-\u001f\u007f]+))+\/?)$/;

/** A JSON Schema pattern matching `words` in any letter case (JSON Schema regexes take no flags). */
const anyCase = (words: readonly string[]): string =>
  `^(${words.map((word) => [...word].map((char) => `[${char.toUpperCase()}${char.toLowerCase()}]`).join('')).join('|')})$`;

const quote = (value: unknown): string => JSON.stringify(value) ?? String(value);

const method = typedAs<MethodName>()(z.string({ error: 'must be a string such as "GET"' }).refine((value) => (METHODS as readonly string[]).includes(value.toUpperCase()), {
  error: (issue) => `${quote(issue.input)} is not one of ${METHODS.join(', ')}`,
}).meta({ pattern: anyCase(METHODS) }));

const algorithm = typedAs<Algorithm>()(z.string({ error: `must be one of ${ALGORITHMS.join(', ')}` }).superRefine((value, context) => {
  if ((ALGORITHMS as readonly string[]).includes(value)) return;
  const hint = CAMEL_CASE_ALGORITHMS[value];
  context.addIssue({
    code: 'custom',
    message: hint ? `${quote(value)} is not accepted: write "${hint}"` : `${quote(value)} is not one of ${ALGORITHMS.join(', ')}`,
  });
}).meta({ enum: [...ALGORITHMS], description: 'How requests are counted, through @upstash/ratelimit.' }));

const mode = z.enum(MODES, { error: 'must be "enforce" (refuse requests past the limit) or "shadow" (count them and log would-be refusals, never refuse)' });
const MODE_DESCRIPTION = 'enforce: refuse requests past the limit; shadow: count them exactly as enforce does, log each would-be refusal and never refuse nor send rate-limit headers.';

const positiveInteger = (what: string) =>
  z
    .number({ error: `must be a number (${what})` })
    .int({ error: `must be a whole number (${what})` })
    .positive({ error: `must be greater than 0 (${what})` })
    .max(MAX_TOKENS, { error: `must be at most ${MAX_TOKENS} (${what})` });

const window = typedAs<WindowText>()(z
  .string({ error: `must be a string, ${DURATION_FORMAT}` })
  .superRefine((value, context) => {
    const duration = parseDuration(value);
    // `0s`, `0.5ms` and `1.5ms` have the form, but no whole, positive number of milliseconds.
    if (!duration && DURATION_PATTERN.test(value.trim())) context.addIssue({ code: 'custom', message: `${quote(value)} is not a whole number of milliseconds of at least 1 (the shortest window is 1ms)` });
    else if (!duration) context.addIssue({ code: 'custom', message: `${quote(value)} is not ${DURATION_FORMAT}` });
    else if (duration.milliseconds > MAX_WINDOW_MS) context.addIssue({ code: 'custom', message: `${quote(value)} is longer than the longest window, ${MAX_WINDOW_DAYS}d` });
  })
  .meta({ pattern: DURATION_PATTERN.source, description: `The length of a window: ${DURATION_FORMAT}; from 1ms to ${MAX_WINDOW_DAYS}d (ten years).` }));

/**
 * Why a token bucket of `tokens` refilled `refillRate` per `window` cannot be kept exactly, or
 * undefined when it can (or is malformed: zod runs refinements even when a field failed its own
 * checks, so only well-formed buckets are judged).
 */
function bucketLifetimeProblem(tokens: unknown, refillRate: unknown, window: unknown): string | undefined {
  const windowMs = typeof window === 'string' ? parseDuration(window)?.milliseconds : undefined;
  if (windowMs === undefined || typeof tokens !== 'number' || typeof refillRate !== 'number' || !(refillRate > 0) || !(tokens > 0)) return undefined;
  const lifetime = tokenBucketKeyLifetime(tokens, refillRate, windowMs);
  if (lifetime <= MAX_KEY_LIFETIME_MS) return undefined;
  return `an emptied bucket of ${tokens} tokens refilled ${refillRate} per ${window} takes ${lifetime} ms to fill, longer than the store can hold a key's lifetime exactly (${MAX_KEY_LIFETIME_MS} ms): raise refillRate or shorten the window`;
}

export const limiterSchema = z
  .strictObject(
    {
      algorithm,
      tokens: positiveInteger('requests allowed per window').meta({ description: `Requests allowed per window (the bucket size for token-bucket), 1 to ${MAX_TOKENS}.` }),
      window,
      refillRate: positiveInteger('tokens added per window, token-bucket only')
        .optional()
        .meta({ description: `token-bucket only (refused on the window algorithms): tokens added per window, 1 to ${MAX_TOKENS}. Default: tokens.` }),
    },
    { error: 'must be an object with algorithm, tokens and window' },
  )
  .superRefine((limiter, context) => {
    if (limiter.refillRate !== undefined && limiter.algorithm !== 'token-bucket') {
      context.addIssue({ code: 'custom', path: ['refillRate'], message: `applies to token-bucket only: remove it, or use "token-bucket" (${quote(limiter.algorithm)} refills nothing)` });
      return;
    }
    if (limiter.algorithm !== 'token-bucket') return;
    const problem = bucketLifetimeProblem(limiter.tokens, limiter.refillRate ?? limiter.tokens, limiter.window);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  })
  // refillRate only with token-bucket, for editors reading strategy-schema.json.
  .meta({ if: { properties: { algorithm: { const: 'token-bucket' } }, required: ['algorithm'] }, else: { not: { required: ['refillRate'] } } });

// A tier of a strategy (docs/tiers.md): its tokens, and a token bucket's refill; never its own algorithm or window.
const tierLimit = z.strictObject(
  {
    tokens: positiveInteger('requests allowed per window for this tier').meta({ description: `Requests this tier allows per the strategy's window (the bucket size for token-bucket), 1 to ${MAX_TOKENS}.` }),
    refillRate: positiveInteger('tokens added per window, token-bucket only')
      .optional()
      .meta({ description: `token-bucket only: tokens this tier gets back per window, 1 to ${MAX_TOKENS}. Default: the tier's tokens.` }),
  },
  { error: 'must be an object with tokens (and refillRate, token-bucket only): a tier changes the limit, the algorithm and window are the strategy\'s' },
);

// users-permissions derives a role's `type` from its name in snake case; the Strapi plugin checks at
// boot that each one named exists. `public` is the role of requests without a credential. Checked in
// the strategy's refinement: zod words a record's key problems with the record's own message.
const ROLE_TYPE = /^[A-Za-z0-9_-]{1,100}$/;
function roleTypeProblem(type: string): string | undefined {
  if (type === 'public') return '"public" is the role of callers without a credential: write its limit as tiers.anonymous';
  return ROLE_TYPE.test(type) ? undefined : `${quote(type)} is not a users-permissions role type (1 to 100 letters, digits, _ and -, such as "authenticated")`;
}

const tiersSchema = z
  .strictObject(
    {
      apiTokens: z
        .strictObject(
          { 'read-only': tierLimit.optional(), 'full-access': tierLimit.optional(), custom: tierLimit.optional() },
          { error: `must be an object keyed by API token type (${API_TOKEN_TYPES.join(', ')})` },
        )
        .optional()
        .meta({ description: `Callers with a valid Strapi API token, by its type (${API_TOKEN_TYPES.join(', ')}).` }),
      roles: z
        .record(z.string(), tierLimit, { error: 'must be an object keyed by users-permissions role type, such as { authenticated: { tokens: 600 } }' })
        .optional()
        .meta({ propertyNames: { pattern: ROLE_TYPE.source, not: { const: 'public' } }, description: 'Users with a valid users-permissions JWT, by their role\'s type (authenticated, or a custom role). Boot refuses a role the app does not have.' }),
      anonymous: tierLimit.optional().meta({ description: 'Requests without a valid credential (limited by IP).' }),
    },
    { error: 'must be an object with apiTokens, roles and/or anonymous' },
  )
  .meta({
    description:
      'identifierSource "user" only: other limits by who is calling, from the verified credential. A caller gets the first that applies: apiTokens.<its type>, roles.<its role type>, anonymous; else the strategy\'s limiter. One counter per caller whatever its tier (docs/tiers.md).',
  });

// What route and GraphQL strategies share (graphql-schema.ts has the GraphQL form's own fields).
const identifierSource = typedAs<IdentifierSource>()(z
  .string({ error: 'must be "ip", "user" or "header.<HEADER_NAME>"' })
  .refine((value) => IDENTIFIER_SOURCE.test(value), { error: (issue) => `${quote(issue.input)} is not "ip", "user" or "header.<HEADER_NAME>"` })
  .meta({
    pattern: IDENTIFIER_SOURCE.source,
    description: 'ip; user (a verified users-permissions JWT or API token, else the IP); or header.<NAME> (any case; callers without the header are limited by IP).',
  }));
const debug = z
  .union([z.boolean(), z.enum(['true', 'false'])], { error: 'must be true or false' })
  .optional()
  .meta({ description: 'Log one line per request (method, route, identifier, remaining, verdict) at info level.' });
const sharedStrategyShape = {
  identifierSource,
  debug,
  mode: mode.optional().meta({ description: `${MODE_DESCRIPTION} Default: the top-level mode.` }),
  limiter: limiterSchema,
  tiers: tiersSchema.optional(),
};

const routeStrategySchema = z.strictObject(
  {
    methods: z
      .array(method, { error: `must be a list such as ["GET"] (items from ${METHODS.join(', ')})` })
      .min(1, { error: 'must name at least one method' })
      .meta({ description: 'Request methods counted (any letter case); ALL counts every method under one limit. HEAD counts as GET.' }),
    path: typedAs<StrategyPath>()(z
      .string({ error: 'must be a string such as "/api/articles/:id" or "*"' })
      .superRefine((value, context) => {
        const pattern = parsePathPattern(value);
        if (pattern.kind === 'invalid') context.addIssue({ code: 'custom', message: pattern.problem });
      })
      .meta({
        pattern: PATH.source,
        maxLength: MAX_PATH_PATTERN_LENGTH,
        description:
          'Matched on the raw request path, as Strapi\'s router matches it (percent-encoding as sent, any letter case, one trailing slash ignored): literal segments, :name for one whole segment, * for any run of characters across segments; a lone * is every content-API route. ( ) ? + { } [ ] \\ and a : inside a segment are refused.',
      })),
    ...sharedStrategyShape,
  },
  { error: 'must be an object with methods, path, identifierSource and limiter (or graphql, identifierSource and limiter)' },
).superRefine(refineTiers);

const graphqlStrategySchema = z
  .strictObject({ graphql: graphqlSelectionSchema, ...sharedStrategyShape }, { error: 'must be an object with graphql, identifierSource and limiter' })
  .superRefine(refineTiers);

type StrategyForm<Schema extends z.ZodType, Other extends z.ZodType> = Schema extends z.ZodType<infer Output, infer Input>
  ? { output: Output; input: Input & { [Key in Exclude<keyof z.input<Other>, keyof Input>]?: never } }
  : never;
type RouteForm = StrategyForm<typeof routeStrategySchema, typeof graphqlStrategySchema>;
type GraphqlForm = StrategyForm<typeof graphqlStrategySchema, typeof routeStrategySchema>;

/** A strategy: a route strategy (methods + path) or a GraphQL strategy (graphql), never both. */
export const strategySchema = strategyForms<typeof routeStrategySchema, typeof graphqlStrategySchema, RouteForm['input'] | GraphqlForm['input'], RouteForm['output'] | GraphqlForm['output']>(
  routeStrategySchema,
  graphqlStrategySchema,
);

function refineTiers(strategy: z.output<z.ZodObject<typeof sharedStrategyShape>>, context: z.RefinementCtx): void {
  if (strategy.tiers === undefined) return;
  if (strategy.identifierSource !== 'user') {
    context.addIssue({ code: 'custom', path: ['tiers'], message: `need identifierSource "user" (the tier is read from the verified credential), not ${quote(strategy.identifierSource)}` });
  }
  for (const type of Object.keys(strategy.tiers.roles ?? {})) {
    const problem = roleTypeProblem(type);
    if (problem) context.addIssue({ code: 'custom', path: ['tiers', 'roles', type], message: problem });
  }
  const algorithm = strategy.limiter?.algorithm;
  for (const [name, tier] of tierEntries(strategy.tiers)) {
    const path = ['tiers', ...name.split(/\.(.*)/s, 2)];
    if (tier.refillRate !== undefined && algorithm !== 'token-bucket') {
      context.addIssue({ code: 'custom', path: [...path, 'refillRate'], message: `applies to token-bucket only: remove it (${quote(algorithm)} refills nothing)` });
    }
    const problem = algorithm === 'token-bucket' ? bucketLifetimeProblem(tier.tokens, tier.refillRate ?? tier.tokens, strategy.limiter.window) : undefined;
    if (problem) context.addIssue({ code: 'custom', path, message: problem });
  }
}

// Checked after trimming: a secret file's last newline is harmless, a CR or LF inside would reach
// the store request's headers (and a token that can never authenticate turns limiting off).
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;
function refuseControlCharacters(value: string, context: z.RefinementCtx): void {
  const found = CONTROL_CHARACTER.exec(value);
  if (found) context.addIssue({ code: 'custom', message: `must not contain control characters (found ${quote(found[0])} at position ${found.index}, after trimming)` });
}

const optionsShape = {
  enabled: z.boolean({ error: 'must be true or false' }).default(true).meta({ description: 'false lets every request through untouched.' }),
  token: z
    .string({ error: 'must be the key-value REST token (a string)' })
    .trim()
    .min(1, { error: 'must not be empty' })
    .superRefine(refuseControlCharacters)
    .optional()
    .meta({ description: 'The key-value REST token (Standard). Required with an http(s) url; a Redis url takes none (its credentials are in the url; a token given anyway is ignored, with a warning at boot). Trimmed; control characters are refused.' }),
  url: z
    .string({ error: `must be ${STORE_URL_FORMS}` })
    .trim()
    // Control characters are checked before parsing: a URL parser would drop a CR or LF inside instead of refusing it.
    .superRefine((url, context) => {
      refuseControlCharacters(url, context);
      const parsed = parseStoreUrl(url);
      if (!parsed.ok) context.addIssue({ code: 'custom', message: parsed.error });
    })
    .optional()
    .meta({
      description:
        'Where the counters live: the key-value REST URL (Upstash, or our key-value server), or your Redis: redis://[user:password@]host[:port][/db] (rediss:// for TLS), redis+sentinel://host:port,host:port/<master name>, redis+cluster://host:port,host:port. Required in production (NODE_ENV=production); without it, development runs an embedded in-memory store in-process. Trimmed; control characters are refused.',
    }),
  prefix: z
    .string({ error: 'must be a string' })
    .min(1, { error: 'must not be empty' })
    .regex(/^[^\s*?[\]\\]*$/, { error: 'must not contain spaces or the glob characters * ? [ ] \\' })
    // A brace would make part of the prefix a Redis Cluster hash tag, moving keys that must share a slot apart.
    .regex(/^[^{}]*$/, { error: 'must not contain { or } (Redis Cluster hash-tag braces)' })
    .default('@cms')
    .meta({ description: 'Store keys are <prefix>:<method>:<route>:<identifier>:<limiter> (see docs/limiting.md).' }),
  analytics: z.boolean({ error: 'must be true or false' }).default(false).meta({ description: "Record allowed/blocked events with @upstash/ratelimit's analytics." }),
  mode: mode.default('enforce').meta({ description: `The mode of strategies that name none. ${MODE_DESCRIPTION}` }),
  strategy: z.array(strategySchema, { error: 'must be a list of strategies' }).default([]).meta({ description: 'Every strategy matching a request applies; any refusal refuses.' }),
  graphql: graphqlBoundsSchema,
  timeout: z
    .number({ error: 'must be a number of milliseconds' })
    .int({ error: 'must be a whole number of milliseconds' })
    .positive({ error: 'must be greater than 0 (milliseconds)' })
    .max(60_000, { error: 'must be at most 60000 (milliseconds)' })
    // The smallest value that kept limits exact in the bench's over-admission scenario (a burst of 200
    // against 10 tokens, every core oversubscribed): 300 ms admitted up to 40 there, 1000 ms exactly 10.
    .default(1000)
    .meta({ description: 'Milliseconds to wait for the store before failureMode applies (default 1000).' }),
  failureMode: z
    .enum(['open', 'closed', 'local'], { error: 'must be "open" (let requests through when the store fails), "closed" (answer 503) or "local" (limit each instance in memory)' })
    .default('open')
    .meta({ description: 'open: let requests through while the store fails (one warning per outage); closed: answer 503; local: limit each instance in memory with the same strategies until the store is back.' }),
  headers: z
    .enum(['standard', 'legacy', 'both', 'none'], { error: 'must be "standard", "legacy", "both" or "none"' })
    .default('standard')
    .meta({ description: 'standard: RateLimit-Policy and RateLimit (IETF draft); legacy: X-RateLimit-*; both; none.' }),
  allowList: z
    .array(
      z.string({ error: 'must be a string' }).refine((entry) => parseAllowListEntry(entry) !== undefined, {
        error: (issue) => `${quote(issue.input)} is not ${ALLOW_LIST_FORMAT} (a header value is written header.x-api-key:<value>)`,
      }),
      { error: 'must be a list of identifiers' },
    )
    .default([])
    .meta({ description: `Callers never limited: ${ALLOW_LIST_FORMAT}. IP entries apply to callers identified by IP, header entries to that header's callers.` }),
  ipv6Subnet: z
    .number({ error: 'must be a prefix length' })
    .int({ error: 'must be a whole number (prefix length)' })
    .min(1, { error: 'must be at least 1 (prefix length)' })
    .max(128, { error: 'must be at most 128 (prefix length)' })
    .default(64)
    .meta({ description: 'IPv6 callers are grouped by this prefix length (128: one address each).' }),
  hashHeaderValues: z
    .enum(['credentials', 'always', 'never'], { error: 'must be "credentials" (hash header values whose name looks like a credential), "always" or "never"' })
    .default('credentials')
    .meta({
      description:
        'header.<NAME> callers keyed, shown and logged as an HMAC of the value (its key: headerHashSecret, else one created once in the store) instead of the value: credentials (names like authorization, cookie, x-api-key, or containing token, secret, key, auth), always, never.',
    }),
  headerHashSecret: z
    .string({ error: `must be a secret string of ${MIN_HEADER_HASH_SECRET_LENGTH} to ${MAX_HEADER_HASH_SECRET_LENGTH} characters` })
    .trim()
    .min(MIN_HEADER_HASH_SECRET_LENGTH, { error: `must be at least ${MIN_HEADER_HASH_SECRET_LENGTH} characters (for example the output of openssl rand -base64 32)` })
    .max(MAX_HEADER_HASH_SECRET_LENGTH, { error: `must be at most ${MAX_HEADER_HASH_SECRET_LENGTH} characters` })
    .superRefine(refuseControlCharacters)
    .optional()
    .meta({
      description: `The key of the HMAC that hashed header values are keyed by, the same on every instance (${MIN_HEADER_HASH_SECRET_LENGTH} to ${MAX_HEADER_HASH_SECRET_LENGTH} characters). Without it, the first instance creates a random one in the store (<prefix>:headerHashKey) and every instance reads it at boot. Changing it gives every hashed header caller a new identifier (fresh counters; deny-list entries of hmac= members no longer match).`,
    }),
  blockedCacheSize: z
    .number({ error: 'must be a number of entries' })
    .int({ error: 'must be a whole number of entries' })
    .min(0, { error: 'must be 0 or more (0 turns the block cache off)' })
    .default(10_000)
    .meta({ description: 'Callers remembered as blocked until their reset, answered without a store call.' }),
  blockedCacheMaxMs: z
    .number({ error: 'must be a number of milliseconds' })
    .int({ error: 'must be a whole number of milliseconds' })
    .min(0, { error: 'must be 0 or more (milliseconds; 0 asks the store on every window-algorithm refusal)' })
    .max(3_600_000, { error: 'must be at most 3600000 (milliseconds: an hour)' })
    .default(10_000)
    .meta({
      description:
        'Longest time (ms) an instance answers a fixed- or sliding-window refusal from memory before asking the store again, so a raised live limit reaches every instance within it (default 10000). Token-bucket refusals last until the next refill, which a raised limit does not move.',
    }),
  denyList: z
    .boolean({ error: 'must be true or false' })
    .default(true)
    .meta({ description: 'Check every limited request against the deny list (<prefix>:denyList:all) in the same store round trip as its limits; a denied caller gets 403. false: no check, no command.' }),
  denyCacheMs: z
    .number({ error: 'must be a number of milliseconds' })
    .int({ error: 'must be a whole number of milliseconds' })
    .min(0, { error: 'must be 0 or more (0: every request of a denied caller asks the store)' })
    .max(MAX_DENY_CACHE_MS, { error: `must be at most ${MAX_DENY_CACHE_MS} (milliseconds): a lift must reach every instance within a minute` })
    .default(10_000)
    .meta({ description: `Milliseconds an instance answers a denied caller from memory without asking the store (0 to ${MAX_DENY_CACHE_MS}, default 10000): a lift applies on the other instances within this time.` }),
};

function describeRoute(strategy: z.output<typeof strategySchema>, earlier: z.output<typeof strategySchema>): string {
  if ('graphql' in strategy) return `GraphQL route "${routeOf(strategy).route}"`;
  // Paths spelt differently share keys when they match the same requests (config/canonical-path.ts).
  return 'path' in earlier && earlier.path !== strategy.path ? `path "${strategy.path}", which matches the same requests as "${earlier.path}"` : `path "${strategy.path}"`;
}

export const configSchema = z.strictObject(optionsShape, { error: 'must be an object' }).superRefine((config, context) => {
  for (const [earlier, later, method] of strategiesSharingKeys(config.strategy)) {
    context.addIssue({
      code: 'custom',
      path: ['strategy', later],
      message: `shares its store keys with strategy[${earlier}] (${describeRoute(config.strategy[later], config.strategy[earlier])}, method ${method}), so their counters would mix: use another ${'graphql' in config.strategy[later] ? 'field list or charge' : 'path, method or identifier source'}, or a different window`,
    });
  }
  // Without url, development uses the embedded store and production refuses to boot (parse-config.ts).
  if (config.enabled && config.url !== undefined && config.token === undefined && isRestUrl(config.url)) {
    context.addIssue({ code: 'custom', path: ['token'], message: 'is required with an http(s) url (the key-value REST token)' });
  }
  // A token beside a Redis url is ignored, with a warning at boot (strapi/boot-report.ts): the quick
  // start's .env keeps one from development.
}).meta({
  title: 'strapi-plugin-ratelimit config',
  description: 'The `config` object of the ratelimit plugin in config/plugins.',
  // A REST url needs its token (a Redis url ignores one); production also needs the url, which a JSON Schema cannot know.
  if: { properties: { url: { pattern: '^[Hh][Tt][Tt][Pp][Ss]?://' } }, required: ['url'] },
  then: { required: ['token'] },
});

/** The config as users write it. */
export type RateLimitConfigInput = z.input<typeof configSchema>;
/** The config with defaults applied. */
export type RateLimitConfig = z.output<typeof configSchema>;
export type StrategyConfig = z.output<typeof strategySchema>;
/** A strategy of methods and a path. */
export type RouteStrategyConfig = RouteForm['output'];
/** A strategy of GraphQL root fields (docs/graphql.md). */
export type GraphqlStrategyConfig = GraphqlForm['output'];
export type { ApiTokenType, Algorithm, IdentifierSource, Method, MethodName, Mode, StrategyPath, WindowText } from './config-literals';
