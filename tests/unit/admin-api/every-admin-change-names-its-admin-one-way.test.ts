// Finding 2: the live-limit and the deny-list controllers each read the admin from ctx.state.user
// their own way, so one admin was logged under two names: an admin with no email was "an unnamed
// admin" on a live-limit change but "admin 7" on a deny, and an empty email was logged as nothing at
// all on a deny. Every change an admin makes must name them the same way in the audit trail.
import type { Context } from 'koa';
import { usageController, type UsageSource } from '../../../server/src/admin-api/controllers';
import { denyController, type DenySource } from '../../../server/src/admin-api/deny-controller';

/** The `by` each controller passes down for one admin user. */
async function namesFor(user: unknown): Promise<{ liveLimit: string; deny: string; lift: string }> {
  const names: Record<string, string> = {};
  const usage: UsageSource = {
    config: { strategy: [{}] },
    readUsage: () => Promise.reject(new Error('not used')),
    configuredReport: () => {
      throw new Error('not used');
    },
    resetCaller: () => Promise.reject(new Error('not used')),
    setLiveLimit: (strategy, live, by) => {
      names.liveLimit = by;
      return Promise.resolve({ strategy, configured: 10, live });
    },
  };
  const deny: DenySource = {
    denyCaller: (_request, by) => {
      names.deny = by;
      return Promise.resolve({ member: '203.0.113.9' });
    },
    liftDenied: (_request, by) => {
      names.lift = by;
      return Promise.resolve({ member: '203.0.113.9', lifted: true });
    },
    listDenied: () => Promise.reject(new Error('not used')),
  };
  const context = () => ({ params: { index: '0' }, query: {}, request: { body: { tokens: 5, ip: '203.0.113.9', member: '203.0.113.9' } }, state: { user } }) as unknown as Context;
  await usageController(() => usage).setLimit(context());
  await denyController(() => deny).deny(context());
  await denyController(() => deny).lift(context());
  return names as { liveLimit: string; deny: string; lift: string };
}

describe('every admin change names its admin one way', () => {
  it.each([
    ['an email', { id: 7, email: 'ops@example.com' }, 'ops@example.com'],
    ['no email', { id: 7 }, 'admin 7'],
    ['an empty email', { id: 7, email: '' }, 'admin 7'],
    ['an email that is no string', { id: 7, email: ['ops@example.com'] }, 'admin 7'],
    ['no user', undefined, 'an unknown admin'],
  ])('an admin with %s is logged as one name by the live-limit change, the deny and the lift', async (_case, user, name) => {
    expect(await namesFor(user)).toEqual({ liveLimit: name, deny: name, lift: name });
  });
});
