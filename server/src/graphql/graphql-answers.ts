// Answers in GraphQL's shape at the endpoint (GraphQL clients such as Apollo Client and urql read
// `errors[]`, not a REST error body): refusals, a request the plugin will not read, and, when
// `graphql.extensions` is on, `extensions.rateLimit` on an allowed response, as Shopify returns
// its cost and bucket. The HTTP side (429 and its RateLimit and Retry-After headers, 403, 503) is
// the same as at any route.
import type { Context } from 'koa';
import type { Refusal } from '../http/refusal';

/** What a refusal or an admitted request tells a GraphQL client of the limit that decided it. */
export interface GraphqlLimitState {
  /** What the request takes from the strategy (its count or cost). */
  readonly cost: number;
  readonly limit: number;
  readonly remaining: number;
  /** ms epoch. */
  readonly reset: number;
}

const CODES = { 403: 'FORBIDDEN', 429: 'RATE_LIMITED', 503: 'SERVICE_UNAVAILABLE' } as const;

export function graphqlError(ctx: Context, status: number, message: string, extensions: Record<string, unknown>): void {
  ctx.status = status;
  ctx.body = { errors: [{ message, extensions }] };
}

/** A refusal (429 of a limit, 403 of the deny list, 503 of failureMode closed) as a GraphQL error; `cost` for a 429. */
export function graphqlRefusal(ctx: Context, refusal: Refusal, cost: number | undefined): void {
  if (refusal.status !== 429) return graphqlError(ctx, refusal.status, refusal.message, { code: CODES[refusal.status] });
  const retryAfter = Math.max(1, Math.ceil((refusal.reset - Date.now()) / 1000));
  graphqlError(ctx, 429, refusal.message, { code: CODES[429], retryAfter, cost: cost ?? 1, limit: refusal.limit, remaining: refusal.remaining });
}

/** A request costing more than its strategy's whole budget: no wait can admit it, so the plugin answers it (http/graphql-endpoint.ts says what it takes). */
export function graphqlTooCostly(ctx: Context, cost: number, limit: number, strategyIndex: number): void {
  graphqlError(ctx, 400, `This request costs ${cost}, more than the ${limit} strategy[${strategyIndex}] allows a caller per window: ask for fewer fields, aliases or items`, {
    code: 'QUERY_TOO_COSTLY',
    cost,
    limit,
  });
}

/** Responses larger than this are left without extensions rather than parsed again. */
const MAX_REWRITTEN_BODY = 1_048_576;

/**
 * Adds `extensions.rateLimit` to an allowed response: to an object body as it is, to a JSON text
 * (Apollo's) by appending before its last `}` when it has no `"extensions"` key anywhere (the usual
 * case, one scan of the text), else by parsing it when it is at most 1 MB. Arrays (batches), streams
 * and other bodies are left as they are.
 */
export function addRateLimitExtensions(ctx: Context, state: GraphqlLimitState): void {
  const rateLimit = { cost: state.cost, limit: state.limit, remaining: state.remaining, reset: state.reset };
  const body: unknown = ctx.body;
  if (typeof body === 'object' && body !== null && !Array.isArray(body) && !Buffer.isBuffer(body) && !('pipe' in body)) {
    const record = body as Record<string, unknown>;
    const extensions = typeof record.extensions === 'object' && record.extensions !== null ? record.extensions : {};
    ctx.body = { ...record, extensions: { ...extensions, rateLimit } };
    return;
  }
  if (typeof body !== 'string' || !body.startsWith('{') || !body.trimEnd().endsWith('}')) return;
  if (!body.includes('"extensions"')) {
    const end = body.lastIndexOf('}');
    const empty = /^\{\s*$/.test(body.slice(0, end));
    ctx.body = `${body.slice(0, end)}${empty ? '' : ','}"extensions":${JSON.stringify({ rateLimit })}${body.slice(end)}`;
    return;
  }
  if (body.length > MAX_REWRITTEN_BODY) return;
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    const extensions = typeof parsed.extensions === 'object' && parsed.extensions !== null ? parsed.extensions : {};
    ctx.body = JSON.stringify({ ...parsed, extensions: { ...extensions, rateLimit } });
  } catch {
    // Not JSON after all: left as it is.
  }
}
