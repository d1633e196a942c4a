// The admin API of the deny list: list the members (read), deny a caller and lift a member
// (configure). Bad input answers 400 in Strapi's shape with what is wrong; a store that cannot be
// reached 503. Each change is logged with the admin's email (the admin JWT's user, ctx.state.user).
import type { Context } from 'koa';
import type { DenyAdmin } from '../deny/deny-admin';
import { DenyInputError } from '../deny/deny-input';
import { adminOf } from './admin-of';
import { badRequest, storeDown } from './controllers';

export type DenySource = DenyAdmin;

async function answer(ctx: Context, work: () => Promise<unknown>): Promise<void> {
  try {
    ctx.body = { data: await work() };
  } catch (error) {
    if (error instanceof DenyInputError) return badRequest(ctx, error.message);
    storeDown(ctx, error);
  }
}

/** @param source the app's rate limiter, looked up when a request arrives. */
export const denyController = (source: () => DenySource) => ({
  list: (ctx: Context) => answer(ctx, () => source().listDenied()),
  deny: (ctx: Context) => answer(ctx, () => source().denyCaller((ctx.request as { body?: unknown }).body, adminOf(ctx))),
  lift: (ctx: Context) => answer(ctx, () => source().liftDenied((ctx.request as { body?: unknown }).body, adminOf(ctx))),
});
