// The users-permissions role of a verified user, for tiers (docs/tiers.md): its `type`, read with
// one database query per user and remembered ROLE_TTL_MS, for at most ROLE_CAPACITY users. A role
// change so applies within ROLE_TTL_MS, and steady traffic costs no query per request: one per user
// and period (concurrent requests of one user share one read). A read that fails (the database is
// down) is not remembered, and its user gets the strategy's own limiter meanwhile (no tier), still
// limited as `user=<id>`. The same query reads whether the user is blocked: a blocked or deleted
// user, whose JWT Strapi answers 401 'Invalid credentials', has no valid credential (trust round 4,
// finding 3: it kept its role's tier for as long as its JWT lived).
import { BoundedExpiringMap } from '../limiter/bounded-expiring-map';

export const ROLE_TTL_MS = 10_000;
const ROLE_CAPACITY = 10_000;
const USER_UID = 'plugin::users-permissions.user';

interface UserQuery {
  findOne(query: object): Promise<{ blocked?: unknown; role?: { type?: unknown } | null } | null | undefined>;
}

/** The part of Strapi's API the role reader uses. */
export interface RoleReadingStrapi {
  db?: { query(uid: string): unknown };
}

/** What the users table says of a verified user: Strapi refuses it (blocked or deleted), or its role type (undefined when it has none, or the read failed). */
export type UserStanding = { readonly refused: true } | { readonly refused: false; readonly type?: string };

/** Resolves a user's standing. */
export type UserRoles = (userId: string) => Promise<UserStanding>;

const REFUSED: UserStanding = { refused: true };
const UNKNOWN: UserStanding = { refused: false };

export function userRoleReader(strapi: RoleReadingStrapi): UserRoles {
  const roles = new BoundedExpiringMap<Promise<UserStanding>>(ROLE_CAPACITY);
  return (userId) => {
    const now = Date.now();
    const known = roles.get(userId, now);
    if (known) return known;
    const users = strapi.db?.query(USER_UID) as UserQuery | undefined;
    if (!users) return Promise.resolve(UNKNOWN);
    const read = users.findOne({ where: { id: userId }, select: ['id', 'blocked'], populate: { role: { select: ['type'] } } });
    const standing = read.then(
      (user): UserStanding => {
        if (!user || user.blocked === true) return REFUSED;
        return typeof user.role?.type === 'string' ? { refused: false, type: user.role.type } : UNKNOWN;
      },
      () => {
        roles.delete(userId);
        return UNKNOWN;
      },
    );
    roles.set(userId, standing, now + ROLE_TTL_MS);
    return standing;
  };
}
