// Issue 25 finding 8: the Read Only token, which the README says to assume public, read every
// admin's email in `HGETALL @cms:denyList:meta` (`{"by":"<admin email>",...}` per entry). The store
// now keeps the admin user's id only; the admin API resolves it to a name when it lists, through
// Strapi's admin user service, and names an admin removed since by the id it kept.
import type { Context } from 'koa';
import { Redis } from '@upstash/redis';
import { denyController } from '../../../server/src/admin-api/deny-controller';
import type { DenyListReport } from '../../../server/src/admin-api/usage-types';
import { strapiAdminNames } from '../../../server/src/strapi/admin-names';
import { limitedApp, storeForSuite, strategy, type LimitedApp } from '../../integration/plugin/support';

const store = storeForSuite();
let app: LimitedApp;
beforeAll(() => {
  app = limitedApp({ url: store.kv.url, token: store.kv.token, prefix: 'finding-8', strategy: [strategy()] });
});
afterAll(() => app.close());

/** Strapi's admin users as its `admin::user` service finds them, recording each lookup. */
function adminUsers(users: Record<number, { id: number; email: string }>) {
  const lookups: unknown[][] = [];
  const strapi = {
    service: (uid: string) => (uid === 'admin::user' ? { findOne: async (id: number, populate: string[]) => (lookups.push([id, populate]), users[id] ?? null) } : undefined),
  };
  return { names: strapiAdminNames(strapi), lookups };
}

async function call(controller: ReturnType<typeof denyController>, action: 'list' | 'deny', body?: unknown): Promise<unknown> {
  const ctx = { request: { body }, state: { user: { id: 7, email: 'ops@example.com' } }, status: undefined, body: undefined } as unknown as Context;
  await controller[action](ctx);
  return (ctx.body as { data: unknown }).data;
}

describe('the deny list keeps no admin email where the Read Only token reads', () => {
  it('the meta HASH holds the admin id and when; the listing names the admin through the admin user service, or says they were removed', async () => {
    const alive = adminUsers({ 7: { id: 7, email: 'ops@example.com' } });
    await call(denyController(() => app.limiter, alive.names), 'deny', { ip: '203.0.113.9' });

    const publicReader = new Redis({ url: store.kv.url, token: store.kv.readonlyToken });
    const meta = await publicReader.hgetall<Record<string, { adminId?: string; at?: number; by?: string }>>('finding-8:denyList:meta');
    expect(meta).toEqual({ '203.0.113.9': { adminId: '7', at: expect.any(Number) } });
    expect(JSON.stringify(meta)).not.toContain('ops@example.com');

    const listed = (await call(denyController(() => app.limiter, alive.names), 'list')) as DenyListReport;
    expect(listed.members).toEqual([{ member: '203.0.113.9', kind: 'ip', adminId: '7', by: 'ops@example.com', at: expect.any(Number) }]);
    expect(alive.lookups).toEqual([[7, []]]);

    const removed = adminUsers({});
    const afterRemoval = (await call(denyController(() => app.limiter, removed.names), 'list')) as DenyListReport;
    expect(afterRemoval.members).toEqual([{ member: '203.0.113.9', kind: 'ip', adminId: '7', adminRemoved: true, at: expect.any(Number) }]);
  });

  it('a console entry names no admin, and a meta HASH of made-up ids costs at most 50 lookups', async () => {
    await store.redis.sadd('finding-8:denyList:all', 'console-entry');
    const members = Array.from({ length: 120 }, (_, index) => `198.51.100.${index}`);
    await store.redis.sadd('finding-8:denyList:all', members[0], ...members.slice(1));
    await store.redis.hset('finding-8:denyList:meta', Object.fromEntries(members.map((member, index) => [member, JSON.stringify({ adminId: String(1000 + index), at: 1 })])));
    const nobody = adminUsers({});
    const listed = (await call(denyController(() => app.limiter, nobody.names), 'list')) as DenyListReport;
    expect(nobody.lookups).toHaveLength(50);
    expect(listed.members.find((member) => member.member === 'console-entry')).toEqual({ member: 'console-entry', kind: 'other' });
    expect(listed.members.filter((member) => member.adminRemoved)).toHaveLength(50);
  });
});
