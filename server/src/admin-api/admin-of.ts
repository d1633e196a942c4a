// Who made an admin change, for the audit line every change logs (live limits, the deny list): the
// admin user Strapi's admin auth strategy put in ctx.state, named by their email, else their id. One
// reading, so one admin has one name in the log whatever they changed.
import type { Context } from 'koa';

export function adminOf(ctx: Context): string {
  const user = (ctx.state as { user?: { email?: unknown; id?: unknown } } | undefined)?.user;
  if (typeof user?.email === 'string' && user.email !== '') return user.email;
  return user?.id === undefined || user.id === null ? 'an unknown admin' : `admin ${String(user.id)}`;
}
