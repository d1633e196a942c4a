// The GraphQL parts of the config (docs/graphql.md): a strategy's `graphql` selection (the root fields
// it counts, by operation type, and whether it charges per execution or by query cost), the
// top-level `graphql` bounds on the documents the plugin reads, and the one schema of a strategy that
// is either a route strategy (methods + path) or a GraphQL strategy. Kept apart from schema.ts so
// each form's rules are read in one place.
import { z } from 'zod';

/** GraphQL's Name (spec section 2.1.9). */
export const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
/** Longer than any field name a schema generator writes; keeps a strategy's keys short. */
export const MAX_FIELD_NAME_LENGTH = 128;
/** Root fields one strategy may name per operation type. */
export const MAX_FIELDS_PER_TYPE = 100;
export const GRAPHQL_OPERATION_TYPES = ['query', 'mutation'] as const;
export type GraphqlOperationType = (typeof GRAPHQL_OPERATION_TYPES)[number];
export const GRAPHQL_CHARGES = ['count', 'cost'] as const;
export type GraphqlCharge = (typeof GRAPHQL_CHARGES)[number];

const quote = (value: unknown): string => JSON.stringify(value) ?? String(value);

const fieldList = (type: GraphqlOperationType) =>
  z
    .array(
      z.string({ error: 'must be a root field name (a string)' }).refine((name) => name === '*' || (name.length <= MAX_FIELD_NAME_LENGTH && GRAPHQL_NAME.test(name)), {
        error: (issue) => `${quote(issue.input)} is not a GraphQL field name (letters, digits and _, not starting with a digit, at most ${MAX_FIELD_NAME_LENGTH} characters) nor "*"`,
      }),
      { error: `must be a list of ${type} root field names, such as ${type === 'query' ? '["articles"]' : '["login"]'}, or ["*"]` },
    )
    .min(1, { error: `must name at least one ${type} root field (or "*" for all of them)` })
    .max(MAX_FIELDS_PER_TYPE, { error: `must name at most ${MAX_FIELDS_PER_TYPE} fields (use "*" for all of them)` })
    .superRefine((names, context) => {
      if (names.includes('*') && names.length > 1) context.addIssue({ code: 'custom', message: '"*" already names every root field: write ["*"] alone' });
    })
    .meta({ description: `${type} root fields counted (GraphQL names), or ["*"] for every ${type} root field but __typename.` });

export const graphqlSelectionSchema = z
  .strictObject(
    {
      query: fieldList('query').optional(),
      mutation: fieldList('mutation').optional(),
      charge: z
        .enum(GRAPHQL_CHARGES, { error: 'must be "count" (each execution of a named root field takes 1 token) or "cost" (each takes its query cost, docs/graphql.md)' })
        .optional()
        .meta({ description: 'count (default): each execution of a named root field takes 1 token; cost: each takes its query cost (docs/graphql.md).' }),
    },
    { error: 'must be an object such as { mutation: ["login"] } or { query: ["articles"], charge: "cost" }' },
  )
  .superRefine((selection, context) => {
    if (selection.query === undefined && selection.mutation === undefined) context.addIssue({ code: 'custom', message: 'must name query and/or mutation root fields, such as { mutation: ["login"] }' });
  })
  .meta({ description: 'The GraphQL root fields this strategy counts at the GraphQL endpoint (GET and POST alike), by operation type.' });

export type GraphqlSelection = z.output<typeof graphqlSelectionSchema>;

/** The document bounds' defaults (docs/graphql.md, "Document bounds"). */
export const GRAPHQL_BOUND_DEFAULTS = {
  // The GraphQL route's own JSON limit (koa-bodyparser's 1 MB, which Strapi's GraphQL plugin keeps).
  maxBodyBytes: 1_048_576,
  // graphql-armor's default is 1,000; Strapi queries with fragments and filters run to a few thousand.
  maxTokens: 10_000,
  maxDepth: 20,
  // Apollo spends about 0.46 s validating 10,000 aliases; 100 leaves room for honest aliasing.
  maxAliases: 100,
  // graphql-js's validation compares the fragments spread together pair by pair: 400 spreads of
  // `me { name }` (16 KB) took it 161 ms of CPU; 50 took it 4 ms, where a plain query takes 0.2 ms
  // (docs/graphql.md, "Document bounds"). A page's query spreads a few fragments.
  maxFragmentSpreads: 50,
  maxBatchOperations: 20,
  bodyTimeoutMs: 10_000,
  extensions: false,
} as const;

const bound = (what: string, max: number, fallback: number) =>
  z
    .number({ error: `must be a number (${what})` })
    .int({ error: `must be a whole number (${what})` })
    .positive({ error: `must be greater than 0 (${what})` })
    .max(max, { error: `must be at most ${max} (${what})` })
    .default(fallback)
    .meta({ description: `${what[0].toUpperCase()}${what.slice(1)}; default ${fallback}, at most ${max}.` });

export const graphqlBoundsSchema = z
  .strictObject(
    {
      maxBodyBytes: bound('bytes of a POST body read at the GraphQL endpoint', 16 * 1_048_576, GRAPHQL_BOUND_DEFAULTS.maxBodyBytes),
      maxTokens: bound("tokens in one document (graphql-js's parse option), and selections the cost walks of one request read together", 1_000_000, GRAPHQL_BOUND_DEFAULTS.maxTokens),
      maxDepth: bound('nesting of selections (fields, inline fragments, fragment spreads followed)', 200, GRAPHQL_BOUND_DEFAULTS.maxDepth),
      maxAliases: bound('aliased fields in one document, and fields repeating a response key of their selection set', 100_000, GRAPHQL_BOUND_DEFAULTS.maxAliases),
      maxFragmentSpreads: bound('fragment spreads in one document, as written', 100_000, GRAPHQL_BOUND_DEFAULTS.maxFragmentSpreads),
      maxBatchOperations: bound('operations in one JSON array batch', 1000, GRAPHQL_BOUND_DEFAULTS.maxBatchOperations),
      bodyTimeoutMs: bound('milliseconds to wait for a POST body', 60_000, GRAPHQL_BOUND_DEFAULTS.bodyTimeoutMs),
      extensions: z
        .boolean({ error: 'must be true or false' })
        .default(GRAPHQL_BOUND_DEFAULTS.extensions)
        .meta({ description: 'Add extensions.rateLimit { cost, limit, remaining, reset } to allowed GraphQL responses (JSON objects) of GraphQL strategies. Default false.' }),
    },
    { error: 'must be an object with maxBodyBytes, maxTokens, maxDepth, maxAliases, maxFragmentSpreads, maxBatchOperations, bodyTimeoutMs and/or extensions' },
  )
  .default({ ...GRAPHQL_BOUND_DEFAULTS })
  .meta({ description: 'With at least one GraphQL strategy: the bounds on the documents the plugin reads at the GraphQL endpoint (a document past one is answered 400 with a GraphQL error), and the extensions of allowed responses.' });

export type GraphqlBounds = z.output<typeof graphqlBoundsSchema>;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

type AnySchema = z.ZodType<unknown, unknown>;

/**
 * One strategy, either form: a `graphql` key makes it a GraphQL strategy, validated by `graphql`,
 * else a route strategy, validated by `route`. Each form's own messages name the field (a union's
 * would only say "Invalid input"); `methods`, `path` and `graphql.subscription` get messages of their
 * own. The types are the union of the two forms, each refusing the other's keys.
 */
export function strategyForms<Route extends AnySchema, Graphql extends AnySchema, Input, Output>(route: Route, graphql: Graphql): z.ZodType<Output, Input> {
  const formOf = (input: unknown) => (isObject(input) && 'graphql' in input ? graphql : route);
  return z
    .unknown()
    .transform((input, context) => {
      const form = formOf(input);
      let checked = input;
      let problems = 0;
      if (form === graphql && isObject(input)) {
        const { methods, path, ...rest } = input;
        for (const [key, value] of Object.entries({ methods, path })) {
          if (value === undefined) continue;
          problems++;
          context.addIssue({ code: 'custom', path: [key], message: 'is not used by a GraphQL strategy, which counts at the GraphQL endpoint, GET and POST alike: remove it' });
        }
        checked = rest;
        if (isObject(rest.graphql) && 'subscription' in rest.graphql) {
          const { subscription: _subscription, ...selection } = rest.graphql;
          problems++;
          context.addIssue({ code: 'custom', path: ['graphql', 'subscription'], message: "is not served by Strapi's GraphQL plugin (it has no subscriptions): remove it" });
          checked = { ...rest, graphql: selection };
        }
      }
      const result = form.safeParse(checked);
      if (!result.success) for (const issue of result.error.issues) context.addIssue(issue as unknown as z.core.$ZodRawIssue);
      return result.success && problems === 0 ? result.data : z.NEVER;
    })
    .meta({ anyOf: [z.toJSONSchema(route, { io: 'input', unrepresentable: 'any' }), z.toJSONSchema(graphql, { io: 'input', unrepresentable: 'any' })].map(({ $schema: _schema, ...rest }) => rest) }) as unknown as z.ZodType<Output, Input>;
}
