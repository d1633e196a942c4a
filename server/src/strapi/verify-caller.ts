// Verifies the credential of a request with Strapi's own services, for `identifierSource: 'user'`:
// a users-permissions JWT with that plugin's `jwt` service (signature and expiry), a content-API
// token with the admin's API-token service (looked up by its salted hash; expired tokens and
// admin-kind tokens do not count), exactly as Strapi's own authentication strategies do. Nothing
// the request says is trusted unverified: a credential that does not verify leaves the caller
// limited by IP. Cost: one HMAC check per JWT, one database read per API token (Strapi's own
// authentication reads it once more when the route needs it), and each verdict, good or bad, is
// remembered for VERDICT_TTL_MS (bounded): a flood carrying one credential, even a bogus one the
// block cache answers, costs one verification per credential and period, not one per request. A
// revoked or expired credential so keeps its own budget for at most that long. Floods of distinct
// credentials: one that cannot be Strapi's (credential-shape.ts) is not verified at all, and an IP
// looks up at most a bounded number of unknown API tokens per period, beside the tokens that
// verified lately, which such a flood cannot hold back (token-lookup-budget.ts); past it, a token
// is looked up only when the app has a token of its hash (api-token-index.ts).
// For tiers (docs/tiers.md) a caller carries its type: an API token's from its record, a user's
// role type, when a tier names roles, from its own bounded, expiring cache (user-roles.ts), which
// also finds a blocked or deleted user: then the request has no valid credential.
import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import type { CallerVerifier, VerifiedCaller } from '../http/verified-caller';
import { BoundedExpiringMap } from '../limiter/bounded-expiring-map';
import { credentialShape } from './credential-shape';
import { ApiTokenIndex, type ReadTokenHashes } from './api-token-index';
import { TokenLookupBudget, type LookupGrant } from './token-lookup-budget';
import { userRoleReader, type RoleReadingStrapi, type UserRoles } from './user-roles';

export const VERDICT_TTL_MS = 10_000;
const VERDICT_CAPACITY = 10_000;

interface ApiTokenService {
  hash(accessKey: string): string;
  getByAccessKey(accessKeyHash: string): Promise<{ id: number | string; kind?: string | null; type?: string | null; expiresAt?: string | Date | null } | null | undefined>;
}

interface TokenHashQuery {
  findMany(query: object): Promise<ReadonlyArray<{ accessKey?: unknown }>>;
}

interface JwtService {
  verify(token: string): Promise<{ id?: number | string } | null | undefined>;
}

/** The parts of Strapi's API the verifier uses; absent ones (no users-permissions) verify nothing. */
export interface VerifyingStrapi extends RoleReadingStrapi {
  service?(uid: string): unknown;
  plugin?(name: string): { service(name: string): unknown } | undefined;
}

/** `Authorization: Bearer <token>` as Strapi's strategies read it: one scheme, one credential. */
function bearerToken(ctx: Context): string | undefined {
  const parts = (ctx.request.headers.authorization ?? '').split(/\s+/);
  return parts.length === 2 && parts[0].toLowerCase() === 'bearer' && parts[1] !== '' ? parts[1] : undefined;
}

async function verifyJwt(jwt: JwtService | undefined, token: string): Promise<VerifiedCaller | undefined> {
  if (!jwt) return undefined;
  const payload = await jwt.verify(token).catch(() => undefined);
  return payload?.id === undefined || payload.id === null ? undefined : { kind: 'user', id: String(payload.id) };
}

async function verifyApiToken(tokens: ApiTokenService | undefined, token: string): Promise<VerifiedCaller | undefined> {
  if (!tokens) return undefined;
  const record = await tokens.getByAccessKey(tokens.hash(token));
  if (!record || (record.kind !== 'content-api' && record.kind !== null && record.kind !== undefined)) return undefined;
  if (record.expiresAt !== null && record.expiresAt !== undefined && new Date(record.expiresAt).getTime() < Date.now()) return undefined;
  return typeof record.type === 'string' ? { kind: 'token', id: String(record.id), type: record.type } : { kind: 'token', id: String(record.id) };
}

const NONE: Promise<undefined> = Promise.resolve(undefined);

/**
 * A verified user with its role type, or none when Strapi refuses the user (blocked or deleted);
 * the verdicts are remembered without either: a role has a period of its own.
 */
async function withRole(verdict: Promise<VerifiedCaller | undefined>, roles: UserRoles): Promise<VerifiedCaller | undefined> {
  const caller = await verdict;
  if (caller?.kind !== 'user') return caller;
  const standing = await roles(caller.id);
  if (standing.refused) return undefined;
  return standing.type === undefined ? caller : { ...caller, type: standing.type };
}

/** `readRoles`: whether a tier names users-permissions roles, so users' role types are read (one query per user and ROLE_TTL_MS). */
export function strapiCallerVerifier(strapi: VerifyingStrapi, options: { readRoles?: boolean } = {}): CallerVerifier {
  const roles = options.readRoles ? userRoleReader(strapi) : undefined;
  const verified = plainCallerVerifier(strapi);
  return roles ? (ctx, ip) => withRole(verified(ctx, ip), roles) : verified;
}

/**
 * The stored hashes of the tokens that can verify (api-token-index.ts): content-API ones (or of no
 * kind: tokens made before kinds were) that have not expired, newest first, so the bound keeps the
 * tokens most likely to be new to the budget. One query, only that column.
 */
function tokenHashReader(strapi: VerifyingStrapi): ReadTokenHashes {
  return async (limit) => {
    const where = {
      $and: [{ $or: [{ kind: 'content-api' }, { kind: { $null: true } }] }, { $or: [{ expiresAt: { $null: true } }, { expiresAt: { $gt: new Date() } }] }],
    };
    const rows = await (strapi.db?.query('admin::api-token') as TokenHashQuery | undefined)?.findMany({ select: ['accessKey'], where, orderBy: { id: 'desc' }, limit });
    return (rows ?? []).flatMap((row) => (typeof row.accessKey === 'string' ? [row.accessKey] : []));
  };
}

/** A credential as a request presents it: `key` its digest, `ip` the request's IP as keyed. */
interface Presented {
  readonly token: string;
  readonly shape: 'jwt' | 'api-token';
  readonly key: string;
  readonly ip: string;
  readonly now: number;
}

function plainCallerVerifier(strapi: VerifyingStrapi): CallerVerifier {
  // Resolved on first use (services exist once Strapi has registered its plugins), then kept.
  let services: { jwt: JwtService | undefined; tokens: ApiTokenService | undefined } | undefined;
  const resolved = () =>
    (services ??= {
      jwt: strapi.plugin?.('users-permissions')?.service('jwt') as JwtService | undefined,
      tokens: strapi.service?.('admin::api-token-content-api') as ApiTokenService | undefined,
    });
  const verdicts = new BoundedExpiringMap<Promise<VerifiedCaller | undefined>>(VERDICT_CAPACITY);
  const lookups = new TokenLookupBudget();
  const appTokens = new ApiTokenIndex(tokenHashReader(strapi));

  /** Verifies and remembers the verdict; an API token's lookup settles with the budget that `grant`ed it. */
  const verify = ({ token, shape, key, ip, now }: Presented, grant: LookupGrant) => {
    const verdict = shape === 'jwt' ? verifyJwt(resolved().jwt, token) : verifyApiToken(resolved().tokens, token);
    if (shape === 'api-token') {
      verdict.then((caller) => lookups.settle(ip, key, grant, caller !== undefined, Date.now()), () => undefined);
    }
    // Concurrent requests with one credential share one verification; a failed one (the database
    // is down) is not remembered, so the next request tries again.
    verdicts.set(key, verdict, now + VERDICT_TTL_MS);
    verdict.catch(() => verdicts.delete(key));
    return verdict;
  };

  return (ctx, ip) => {
    const token = bearerToken(ctx);
    const shape = token === undefined ? undefined : credentialShape(token);
    if (token === undefined || shape === undefined) return NONE;
    // Keyed by a digest: the map holds no credential, and a long one costs no more memory than a short one.
    const presented: Presented = { token, shape, key: createHash('sha256').update(token).digest('base64'), ip, now: Date.now() };
    const known = verdicts.get(presented.key, presented.now);
    if (known) return known;
    if (shape === 'jwt') return verify(presented, undefined);
    // Not remembered: looked up when it verified lately or the caller's budget allows it.
    const grant = lookups.take(ip, presented.key, presented.now);
    if (grant !== undefined) return verify(presented, grant);
    // The IP's budget is spent: looked up only when the app has a token of its hash. A made-up one
    // is not remembered, so a flood of them cannot push the verdicts of valid tokens out.
    const { tokens } = resolved();
    if (!tokens) return NONE;
    return appTokens.has(tokens.hash(token), presented.now).then((exists) => (exists ? verify(presented, undefined) : undefined));
  };
}
