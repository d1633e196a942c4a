// The admin API of the deny list: list the members (read), deny a caller and lift a member
// (configure). Bad input answers 400 in Strapi's shape with what is wrong; a store that cannot be
// reached 503. Each change is logged naming the admin (the admin JWT's user, ctx.state.user); the
// store keeps only their id, which the listing resolves to a name (denied-by.ts).
import type { Context } from 'koa';
import type { DenyAdmin } from '../deny/deny-admin';
import { DenyInputError } from '../deny/deny-input';
import { adminIdOf, adminOf } from './admin-of';
import { badRequest, storeDown } from './controllers';
import { withAdminNames, type AdminNames } from './denied-by';

export type DenySource = DenyAdmin;

async function answer(ctx: Context, work: () => Promise<unknown>): Promise<void> {
  try {
    ctx.body = { data: await work() };
  } catch (error) {
    if (error instanceof DenyInputError) return badRequest(ctx, error.message);
    storeDown(ctx, error);
  }
}

/**
 * @param source the app's rate limiter, looked up when a request arrives.
 * @param adminNames names the admins who denied members (Strapi's admin users), if the host has them.
 */
export const denyController = (source: () => DenySource, adminNames?: AdminNames) => ({
  list: (ctx: Context) => answer(ctx, async () => withAdminNames(await source().listDenied(), adminNames)),
  deny: (ctx: Context) => answer(ctx, () => source().denyCaller((ctx.request as { body?: unknown }).body, adminOf(ctx), adminIdOf(ctx))),
  lift: (ctx: Context) => answer(ctx, () => source().liftDenied((ctx.request as { body?: unknown }).body, adminOf(ctx))),
});
