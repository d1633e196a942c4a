// Boot refuses a tier naming a users-permissions role the app does not have (docs/tiers.md): a
// misspelt role would otherwise never apply, silently. Role types are the app's data, not code, so
// this is checked against its database once the app is up (bootstrap), with the list of its roles in
// the message. Without users-permissions, no role tier can apply. Plugins bootstrap in turn: on a
// fresh database users-permissions may not have created its roles yet, and then creates exactly its
// two defaults (its `initialize` service), which are what an empty table is checked against.
import { RateLimitConfigError } from '../config/errors';
import type { RateLimitConfig } from '../config/schema';

const ROLE_UID = 'plugin::users-permissions.role';
/** What users-permissions creates in an empty role table. */
const DEFAULT_ROLES = ['authenticated', 'public'];

interface RoleQuery {
  findMany(query: object): Promise<Array<{ type?: unknown }>>;
}

/** The parts of Strapi's API the check uses. */
export interface RoleCheckingStrapi {
  db?: { query(uid: string): unknown };
  plugin?(name: string): { service(name: string): unknown } | undefined;
}

/** Throws a RateLimitConfigError naming each tier whose role the app does not have; resolves when all exist (or none is named). */
export async function refuseUnknownRoles(strapi: RoleCheckingStrapi, config: Pick<RateLimitConfig, 'strategy'>): Promise<void> {
  const named = config.strategy.flatMap((strategy, index) => Object.keys(strategy.tiers?.roles ?? {}).map((type) => ({ field: `strategy[${index}].tiers.roles.${type}`, type })));
  if (named.length === 0) return;
  if (!strapi.plugin?.('users-permissions') || !strapi.db) {
    throw new RateLimitConfigError(named.map(({ field }) => `${field}: a role tier needs the users-permissions plugin, which this app does not have`));
  }
  const roles = await (strapi.db.query(ROLE_UID) as RoleQuery).findMany({ select: ['type'] });
  const types = roles.length === 0 ? [...DEFAULT_ROLES] : roles.flatMap((role) => (typeof role.type === 'string' ? [role.type] : []));
  const problems = named.filter(({ type }) => !types.includes(type)).map(({ field, type }) => `${field}: the app has no users-permissions role of type "${type}" (its roles: ${types.sort().join(', ')})`);
  if (problems.length > 0) throw new RateLimitConfigError(problems);
}
