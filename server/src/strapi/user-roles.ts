// The users-permissions role of a verified user, for tiers (docs/tiers.md): its `type`, read with
// one database query per user and remembered ROLE_TTL_MS, for at most ROLE_CAPACITY users. A role
// change so applies within ROLE_TTL_MS, and steady traffic costs no query per request: one per user
// and period (concurrent requests of one user share one read). A read that fails (the database is
// down) is not remembered, and its user gets the strategy's own limiter meanwhile (no tier), still
// limited as `user=<id>`.
import { BoundedExpiringMap } from '../limiter/bounded-expiring-map';

export const ROLE_TTL_MS = 10_000;
const ROLE_CAPACITY = 10_000;
const USER_UID = 'plugin::users-permissions.user';

interface UserQuery {
  findOne(query: object): Promise<{ role?: { type?: unknown } | null } | null | undefined>;
}

/** The part of Strapi's API the role reader uses. */
export interface RoleReadingStrapi {
  db?: { query(uid: string): unknown };
}

/** Resolves a user's role type, or undefined when it has none (or the read failed). */
export type UserRoles = (userId: string) => Promise<string | undefined>;

export function userRoleReader(strapi: RoleReadingStrapi): UserRoles {
  const roles = new BoundedExpiringMap<Promise<string | undefined>>(ROLE_CAPACITY);
  return (userId) => {
    const now = Date.now();
    const known = roles.get(userId, now);
    if (known) return known;
    const users = strapi.db?.query(USER_UID) as UserQuery | undefined;
    const read = users ? users.findOne({ where: { id: userId }, select: ['id'], populate: { role: { select: ['type'] } } }) : Promise.resolve(undefined);
    const role = read.then(
      (user) => (typeof user?.role?.type === 'string' ? user.role.type : undefined),
      () => {
        roles.delete(userId);
        return undefined;
      },
    );
    roles.set(userId, role, now + ROLE_TTL_MS);
    return role;
  };
}
