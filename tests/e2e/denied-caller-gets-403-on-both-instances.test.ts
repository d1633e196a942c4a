// Two Strapi instances (child processes) on one key-value store: a caller denied through one
// instance's admin API gets 403 in Strapi's error shape on both, with no rate-limit headers; the
// page's list shows it with the admin who denied it; a lift admits it at once on that instance and
// within denyCacheMs on the other.
import { startKvRestServer, type KvRestServer } from '../../mock';
import { startStrapiChild, type StrapiChild } from '../fixtures/strapi-child';
import { sharedStoreConfig } from '../support/shared-store-config';

const DENY_CACHE_MS = 2000;
const ADMIN = { email: 'deny-admin@fixture.test', password: 'Fixture-Passw0rd', firstname: 'Deny', lastname: 'Admin' };

describe('a denied caller on two Strapi instances sharing one store', () => {
  let kv: KvRestServer;
  let instances: StrapiChild[] = [];
  let token = '';

  beforeAll(async () => {
    kv = await startKvRestServer();
    const config = sharedStoreConfig(kv, {
      denyCacheMs: DENY_CACHE_MS,
      strategy: [{ methods: ['GET'], path: '/api/ping', identifierSource: 'header.x-caller', limiter: { algorithm: 'fixed-window', tokens: 100, window: '1h' } }],
    });
    instances = await Promise.all([startStrapiChild({ config }), startStrapiChild({ config })]);
    // Each instance has its own database: the first one gets its first (super) admin.
    const registered = await fetch(`${instances[0].url}/admin/register-admin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
    token = ((await registered.json()) as { data: { token: string } }).data.token;
  }, 120_000);
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    await kv?.close();
  });

  const admin = (path: string, body?: object) =>
    fetch(`${instances[0].url}${path}`, { method: body ? 'POST' : 'GET', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
  const ping = (instance: StrapiChild) => fetch(`${instance.url}/api/ping`, { headers: { 'x-caller': 'pest' } });
  const statuses = async () => Promise.all(instances.map(async (instance) => (await ping(instance)).status));

  it('gets 403 on both instances once denied through one, and is admitted again after the lift', async () => {
    expect(await statuses()).toEqual([200, 200]);
    const denied = await admin('/ratelimit/deny', { header: 'x-caller', value: 'pest', duration: '1d' });
    expect(denied.status).toBe(200);
    expect(((await denied.json()) as { data: { member: string } }).data.member).toBe('header.x-caller:pest');

    for (const instance of instances) {
      const refused = await ping(instance);
      expect([refused.status, await refused.json()]).toEqual([403, { data: null, error: { status: 403, name: 'ForbiddenError', message: 'This caller is denied access', details: {} } }]);
      expect([...refused.headers.keys()].filter((name) => /ratelimit|retry-after/i.test(name))).toEqual([]);
    }
    const listed = (await (await admin('/ratelimit/deny')).json()) as { data: { members: Array<{ member: string; by: string; until: number }> } };
    expect(listed.data.members).toEqual([{ member: 'header.x-caller:pest', kind: 'header', adminId: expect.any(String), by: ADMIN.email, at: expect.any(Number), until: expect.any(Number) }]);

    const lifted = await admin('/ratelimit/deny/lift', { member: 'header.x-caller:pest' });
    expect(((await lifted.json()) as { data: object }).data).toEqual({ member: 'header.x-caller:pest', lifted: true });
    const liftedAt = Date.now();
    expect((await ping(instances[0])).status).toBe(200);
    // The other instance answers from its memory of the hit for at most denyCacheMs.
    let other = (await ping(instances[1])).status;
    while (other === 403 && Date.now() - liftedAt < DENY_CACHE_MS + 1000) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      other = (await ping(instances[1])).status;
    }
    expect(other).toBe(200);
  });

  it('refuses deny-list changes without an admin JWT', async () => {
    const anonymous = await fetch(`${instances[0].url}/ratelimit/deny`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ip: '203.0.113.9' }) });
    expect(anonymous.status).toBe(401);
  });
});
