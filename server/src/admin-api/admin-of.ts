// Who made an admin change: the admin user Strapi's admin auth strategy put in ctx.state. For the
// audit line every change logs (live limits, the deny list), named by their email, else their id:
// one reading, so one admin has one name in the log whatever they changed. For what the store
// keeps (a deny entry's author), their id only: the store may be read with a token assumed public,
// so it holds no email; the page resolves the id to a name when it lists (strapi/admin-names.ts).
import type { Context } from 'koa';

interface AdminUser {
  readonly email?: unknown;
  readonly id?: unknown;
}

const userOf = (ctx: Context): AdminUser | undefined => (ctx.state as { user?: AdminUser } | undefined)?.user;

/** An admin user's name in log lines and on the page: their email, else `admin <id>`. */
export function adminName(user: AdminUser | undefined): string {
  if (typeof user?.email === 'string' && user.email !== '') return user.email;
  return user?.id === undefined || user.id === null ? 'an unknown admin' : `admin ${String(user.id)}`;
}

export const adminOf = (ctx: Context): string => adminName(userOf(ctx));

/** The admin's id as the store keeps it, or undefined when the request names none. */
export function adminIdOf(ctx: Context): string | undefined {
  const id = userOf(ctx)?.id;
  return typeof id === 'number' || (typeof id === 'string' && id !== '') ? String(id) : undefined;
}
