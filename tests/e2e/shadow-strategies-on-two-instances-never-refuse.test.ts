// Two Strapi instances (child processes) share one key-value REST server and a shadow strategy: it
// counts the requests of both instances as one limit, refuses none of them, and each instance logs
// a caller's would-be refusal once per window; with analytics, the usage report gives the shadow
// strategy's would-be refusals of both instances.
import { startKvRestServer, type KvRestServer } from '../../mock';
import { startStrapiChild, type StrapiChild } from '../fixtures/strapi-child';
import { ADMIN_PASSWORD } from '../support/admin-users';
import { sharedStoreConfig } from '../support/shared-store-config';
import { windowsHaveRoomForTheSuite } from '../support/window-room';

const SHADOW_LINE = /^.*\[ratelimit\] shadow: would block GET \/api\/ping\/7 for shadowed \(strategy 1, GET \/api\/ping\/:id, 2 per 1h, resets in \d+s\)$/;

const STRATEGY = [
  { methods: ['GET'], path: '/api/ping', identifierSource: 'header.x-caller', limiter: { algorithm: 'fixed-window', tokens: 2, window: '1h' } },
  { methods: ['GET'], path: '/api/ping/:id', identifierSource: 'header.x-caller', mode: 'shadow', limiter: { algorithm: 'fixed-window', tokens: 2, window: '1h' } },
];

describe('a shadow strategy on two Strapi instances sharing one store', () => {
  let kv: KvRestServer;
  let instances: StrapiChild[] = [];

  beforeAll(async () => {
    kv = await startKvRestServer();
    const config = sharedStoreConfig(kv, {
      analytics: true,
      strategy: STRATEGY,
    });
    instances = await Promise.all([startStrapiChild({ config }), startStrapiChild({ config })]);
  }, 120_000);
  windowsHaveRoomForTheSuite({ strategy: STRATEGY });
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    await kv?.close();
  });

  const get = (instance: StrapiChild, path: string) => fetch(`${instance.url}${path}`, { headers: { 'x-caller': 'shadowed' } });

  it('admits every request of both instances, logs each instance\'s would-be refusals once and reports them all', async () => {
    const seen: number[] = [];
    const headers: (string | null)[] = [];
    for (let round = 0; round < 3; round++) {
      for (const instance of instances) {
        const response = await get(instance, '/api/ping/7');
        seen.push(response.status);
        headers.push(response.headers.get('ratelimit-policy'));
      }
    }
    // The enforcing strategy on the other route still refuses the same caller past its own limit.
    const enforced: number[] = [];
    for (let request = 0; request < 3; request++) enforced.push((await get(instances[request % 2], '/api/ping')).status);

    const registered = await fetch(`${instances[0].url}/admin/register-admin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'shadow@fixture.test', firstname: 'Shadow', lastname: 'Admin', password: ADMIN_PASSWORD }),
    });
    const token = ((await registered.json()) as { data: { token: string } }).data.token;
    // Each instance has its own database, so its own admins; the report reads the shared store.
    const usage = (await (await fetch(`${instances[0].url}/ratelimit/usage`, { headers: { authorization: `Bearer ${token}` } })).json()) as { data: { strategies: object[] } };

    expect([seen, headers, enforced]).toEqual([[200, 200, 200, 200, 200, 200], [null, null, null, null, null, null], [200, 200, 429]]);
    // Six requests against 2 tokens: four would-be refusals, two on each instance, each logged once per instance.
    expect(instances.map((instance) => instance.log().filter((line) => SHADOW_LINE.test(line)).length)).toEqual([1, 1]);
    expect(usage.data.strategies[1]).toMatchObject({ mode: 'shadow', wouldBlock: 4 });
  });
});
