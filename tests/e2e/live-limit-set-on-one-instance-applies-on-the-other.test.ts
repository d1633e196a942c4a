// Two Strapi instances (child processes) share one key-value REST server. A live limit set through
// one instance's admin API applies on the other instance's next store call (its scripts read the
// live key), and a caller that instance refuses from memory gets in within blockedCacheMaxMs;
// "back to config" works the same way; and an admin whose role may only read the usage view gets
// 403 on every write.
import { startKvRestServer, type KvRestServer } from '../../mock';
import { ADMIN_PASSWORD } from '../support/admin-users';
import { eventually } from '../fixtures/eventually';
import { startStrapiChild, type StrapiChild } from '../fixtures/strapi-child';
import { sharedStoreConfig } from '../support/shared-store-config';
import { windowsHaveRoomForTheSuite } from '../support/window-room';

/** Held short here so the test waits about a second for the bound; the default is 10 s. */
const BLOCKED_CACHE_MAX_MS = 1000;

const STRATEGY = [{ methods: ['GET'], path: '/api/ping', identifierSource: 'header.x-caller', limiter: { algorithm: 'fixed-window', tokens: 2, window: '1h' } }];

describe('a live limit set on one Strapi instance applies on the other', () => {
  let kv: KvRestServer;
  let changing: StrapiChild;
  let other: StrapiChild;
  let superAdmin: string;
  let reader: string;

  /** A JSON request to an instance's admin API. */
  async function admin(instance: StrapiChild, method: string, path: string, token: string | undefined, body?: unknown): Promise<{ status: number; body: any }> {
    const response = await fetch(`${instance.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json().catch(() => undefined) };
  }

  /** The first admin of `changing` (super admin), then a role that may only read the usage view, and a user in it. */
  async function createAdmins(): Promise<void> {
    const first = await admin(changing, 'POST', '/admin/register-admin', undefined, { email: 'super@fixture.test', firstname: 'Super', lastname: 'Admin', password: ADMIN_PASSWORD });
    superAdmin = first.body.data.token;
    const role = await admin(changing, 'POST', '/admin/roles', superAdmin, { name: 'Rate-limit reader', description: 'May read the usage view only' });
    await admin(changing, 'PUT', `/admin/roles/${role.body.data.id}/permissions`, superAdmin, { permissions: [{ action: 'plugin::ratelimit.read', subject: null, properties: {}, conditions: [] }] });
    const user = await admin(changing, 'POST', '/admin/users', superAdmin, { email: 'reader@fixture.test', firstname: 'Read', lastname: 'Only', roles: [role.body.data.id] });
    const registered = await admin(changing, 'POST', '/admin/register', undefined, {
      registrationToken: user.body.data.registrationToken,
      userInfo: { firstname: 'Read', lastname: 'Only', password: ADMIN_PASSWORD },
    });
    reader = registered.body.data.token;
  }

  beforeAll(async () => {
    kv = await startKvRestServer();
    const config = sharedStoreConfig(kv, {
      blockedCacheMaxMs: BLOCKED_CACHE_MAX_MS,
      strategy: STRATEGY,
    });
    [changing, other] = await Promise.all([startStrapiChild({ config }), startStrapiChild({ config })]);
    await createAdmins();
  }, 120_000);
  windowsHaveRoomForTheSuite({ strategy: STRATEGY });
  afterAll(async () => {
    await Promise.all([changing, other].filter(Boolean).map((instance) => instance.stop()));
    await kv?.close();
  });

  const ping = (instance: StrapiChild, caller: string) => fetch(`${instance.url}/api/ping`, { headers: { 'x-caller': caller } });
  async function statuses(instance: StrapiChild, caller: string, count: number): Promise<number[]> {
    const seen: number[] = [];
    for (let i = 0; i < count; i++) seen.push((await ping(instance, caller)).status);
    return seen;
  }

  it('applies on the other instance at its next store call, within blockedCacheMaxMs for a caller it refuses from memory, and goes back to config', async () => {
    expect(await statuses(other, 'blocked-before', 3)).toEqual([200, 200, 429]);

    const set = await admin(changing, 'PUT', '/ratelimit/strategies/0/limit', superAdmin, { tokens: 5 });
    // The other instance has had no store answer since: it still refuses its blocked caller from memory...
    const started = performance.now();
    const held = (await ping(other, 'blocked-before')).status;
    // ...until the hold ends. The fixed window counted the refused request (3 of 5), so the caller gets in.
    const released = await eventually(async () => (await ping(other, 'blocked-before')).status, (status) => status === 200, 10_000);
    const heldMs = performance.now() - started;
    const fresh = await statuses(other, 'fresh', 6);
    const policy = (await ping(other, 'policy')).headers.get('ratelimit-policy');
    const usage = await admin(changing, 'GET', '/ratelimit/usage', superAdmin);

    expect([set.status, set.body, held, released, fresh, policy]).toEqual([200, { data: { strategy: 0, configured: 2, live: 5 } }, 429, 200, [200, 200, 200, 200, 200, 429], '5;w=3600']);
    expect(heldMs).toBeLessThan(BLOCKED_CACHE_MAX_MS + 2000);
    expect(usage.body.data.strategies[0]).toMatchObject({ tokens: 2, liveTokens: 5, runtimeChangeable: ['tokens'] });

    const back = await admin(changing, 'DELETE', '/ratelimit/strategies/0/limit', superAdmin);
    expect([back.status, back.body, await statuses(other, 'after', 3)]).toEqual([200, { data: { strategy: 0, configured: 2, live: null } }, [200, 200, 429]]);
  });

  it('refuses live-limit writes with 403 to a role that may only read, and bad input with 400', async () => {
    const read = await admin(changing, 'GET', '/ratelimit/usage', reader);
    const put = await admin(changing, 'PUT', '/ratelimit/strategies/0/limit', reader, { tokens: 50 });
    const del = await admin(changing, 'DELETE', '/ratelimit/strategies/0/limit', reader);
    const badIndex = await admin(changing, 'PUT', '/ratelimit/strategies/7/limit', superAdmin, { tokens: 5 });
    const badTokens = await admin(changing, 'PUT', '/ratelimit/strategies/0/limit', superAdmin, { tokens: '5' });
    const infinite = await fetch(`${changing.url}/ratelimit/strategies/0/limit`, { method: 'PUT', headers: { 'content-type': 'application/json', authorization: `Bearer ${superAdmin}` }, body: '{"tokens":1e400}' });

    expect([read.status, put.status, del.status, badIndex.status, badTokens.status, infinite.status]).toEqual([200, 403, 403, 400, 400, 400]);
    expect(badTokens.body).toEqual({ data: null, error: { status: 400, name: 'ValidationError', message: 'tokens must be a whole number from 1 to 1000000000', details: {} } });
    expect((await admin(changing, 'GET', '/ratelimit/usage', superAdmin)).body.data.strategies[0].liveTokens).toBeNull();
  });
});
