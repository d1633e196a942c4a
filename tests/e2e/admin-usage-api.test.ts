// The admin usage API inside a real Strapi app: a super admin sees the right numbers after
// traffic, roles without the read, reset or configure action are refused, reset lets a caller in
// again, a live limit change is logged with the admin's email, many callers give a bounded answer
// with their total, and a shadow strategy never refuses while its would-be refusals show in
// Strapi's log and in the usage report.
import { startKvRestServer, type KvRestServer } from '../../mock';
import { adminRoleId, adminToken, createAdminUser } from '../support/admin-users';
import { bootStrapiApp, type StrapiApp } from '../support/strapi-app';
import { windowsHaveRoomForTheSuite } from '../support/window-room';

const CALLERS = 130;

const STRATEGY = [
  { methods: ['GET'], path: '/api/ping', identifierSource: 'header.x-caller', limiter: { algorithm: 'fixed-window', tokens: 2, window: '1h' } },
  { methods: ['GET'], path: '/api/articles', identifierSource: 'header.x-caller', limiter: { algorithm: 'token-bucket', tokens: 1, window: '1h' } },
  { methods: ['GET'], path: '/api/ping/:id', identifierSource: 'header.x-caller', mode: 'shadow', limiter: { algorithm: 'fixed-window', tokens: 1, window: '1h' } },
];

describe('admin usage API in a real Strapi app', () => {
  let kv: KvRestServer;
  let app: StrapiApp;
  const logged: string[] = [];
  const tokens: Record<'superAdmin' | 'editor' | 'viewer', string> = { superAdmin: '', editor: '', viewer: '' };

  async function userToken(email: string, roleId: number): Promise<string> {
    await createAdminUser(app, email, roleId);
    return adminToken(app, email);
  }

  beforeAll(async () => {
    kv = await startKvRestServer();
    app = await bootStrapiApp({
      config: {
        url: kv.url,
        token: kv.token,
        analytics: true,
        strategy: STRATEGY,
      },
    });
    const log = app.strapi.log as unknown as { info: (message: string) => void };
    const info = log.info.bind(log);
    jest.spyOn(log, 'info').mockImplementation((message: string) => {
      logged.push(message);
      info(message);
    });
    const roles = (app.strapi as unknown as { service(uid: string): unknown }).service('admin::role') as {
      create(role: object): Promise<{ id: number }>;
      assignPermissions(id: number, permissions: object[]): Promise<unknown>;
    };
    const viewerRole = await roles.create({ name: 'Rate-limit viewer', description: 'May read the usage view only' });
    await roles.assignPermissions(viewerRole.id, [{ action: 'plugin::ratelimit.read', subject: null, properties: {}, conditions: [] }]);
    tokens.superAdmin = await userToken('super@fixture.test', await adminRoleId(app, 'strapi-super-admin'));
    tokens.editor = await userToken('editor@fixture.test', await adminRoleId(app, 'strapi-editor'));
    tokens.viewer = await userToken('viewer@fixture.test', viewerRole.id);
  });
  windowsHaveRoomForTheSuite({ strategy: STRATEGY });
  afterAll(async () => {
    jest.restoreAllMocks();
    await app?.close();
    await kv?.close();
  });

  const usage = (token: string, query = '') => app.request.get(`/ratelimit/usage${query}`).set('Authorization', `Bearer ${token}`);
  const reset = (token: string, body: object) => app.request.post('/ratelimit/reset').set('Authorization', `Bearer ${token}`).send(body);

  it('shows a super admin the live counters and analytics after traffic', async () => {
    const seen: number[] = [];
    for (let request = 0; request < 3; request++) seen.push((await app.request.get('/api/ping').set('x-caller', 'flooder')).status);
    seen.push((await app.request.get('/api/ping').set('x-caller', 'polite')).status);
    expect(seen).toEqual([200, 200, 429, 200]);

    const response = await usage(tokens.superAdmin);
    expect(response.status).toBe(200);
    const [ping, articles] = response.body.data.strategies;
    expect(ping).toMatchObject({ path: '/api/ping', algorithm: 'fixed-window', tokens: 2, totalCallers: 2, blockedCallers: 1 });
    expect(ping.callers).toEqual([
      expect.objectContaining({ identifier: 'flooder', method: 'GET', used: 2, remaining: 0, blocked: true }),
      expect.objectContaining({ identifier: 'polite', method: 'GET', used: 1, remaining: 1, blocked: false }),
    ]);
    expect(articles).toMatchObject({ path: '/api/articles', totalCallers: 0, callers: [] });
    const currentHour = response.body.data.analytics.hours[23];
    expect(currentHour).toMatchObject({ allowed: 3, blocked: 1 });
    expect(response.body.data.analytics.mostLimited[0]).toEqual({ identifier: 'GET:/api/ping:flooder:fixed-window.1h', count: 1, path: '/api/ping' });
    expect(response.body.data.failOpen).toEqual({ admitted: 0, outage: false });
  });

  it('refuses the usage view without a token (401) and to an editor without the read action (403)', async () => {
    expect((await app.request.get('/ratelimit/usage')).status).toBe(401);
    expect((await usage(tokens.editor)).status).toBe(403);
    expect((await usage(tokens.viewer)).status).toBe(200);
  });

  it('resets a blocked caller for a super admin, and refuses the reset to roles without its action', async () => {
    expect((await app.request.get('/api/ping').set('x-caller', 'flooder')).status).toBe(429);
    expect((await reset(tokens.viewer, { strategy: 0, identifier: 'flooder' })).status).toBe(403);
    expect((await reset(tokens.editor, { strategy: 0, identifier: 'flooder' })).status).toBe(403);

    const response = await reset(tokens.superAdmin, { strategy: 0, identifier: 'flooder' });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ strategy: 0, identifier: 'flooder', deletedKeys: 1 });
    const after = await usage(tokens.superAdmin);
    expect(after.body.data.strategies[0].callers.map((caller: { identifier: string }) => caller.identifier)).toEqual(['polite']);
    expect((await app.request.get('/api/ping').set('x-caller', 'flooder')).status).toBe(200);
  });

  it('changes a live limit for a super admin, logging the admin Strapi authenticated, and refuses it to roles without the configure action', async () => {
    const put = (token: string, tokens: unknown) => app.request.put('/ratelimit/strategies/0/limit').set('Authorization', `Bearer ${token}`).send({ tokens });
    expect([(await put(tokens.viewer, 7)).status, (await put(tokens.editor, 7)).status]).toEqual([403, 403]);

    const set = await put(tokens.superAdmin, 7);
    const back = await app.request.delete('/ratelimit/strategies/0/limit').set('Authorization', `Bearer ${tokens.superAdmin}`);

    expect([set.status, set.body, back.status, back.body]).toEqual([200, { data: { strategy: 0, configured: 2, live: 7 } }, 200, { data: { strategy: 0, configured: 2, live: null } }]);
    expect(logged.filter((line) => line.startsWith('[ratelimit] live limit'))).toEqual([
      '[ratelimit] live limit of strategy[0] (GET /api/ping) 2 -> 7 by super@fixture.test',
      '[ratelimit] live limit of strategy[0] (GET /api/ping) 7 -> 2 (back to config) by super@fixture.test',
    ]);
  });

  it('answers a bounded list with the total when many callers hold counters', async () => {
    for (let caller = 0; caller < CALLERS; caller++) expect((await app.request.get('/api/articles').set('x-caller', `caller-${caller}`)).status).toBe(200);
    const response = await usage(tokens.superAdmin, '?limit=25');
    expect(response.status).toBe(200);
    const articles = response.body.data.strategies[1];
    expect(articles.callers).toHaveLength(25);
    expect(articles).toMatchObject({ totalCallers: CALLERS, totalExact: true });
  });

  it('lets every request through a shadow strategy, logs its would-be refusal once and reports it in the usage view', async () => {
    const seen: number[] = [];
    for (let request = 0; request < 4; request++) seen.push((await app.request.get('/api/ping/7').set('x-caller', 'shadowed')).status);
    expect(seen).toEqual([200, 200, 200, 200]);
    expect(logged.filter((line) => line.startsWith('[ratelimit] shadow:'))).toEqual([
      expect.stringMatching(/^\[ratelimit\] shadow: would block GET \/api\/ping\/7 for shadowed \(strategy 2, GET \/api\/ping\/:id, 1 per 1h, resets in \d+s\)$/),
    ]);
    // Analytics events are written after the response: poll the report until all three have arrived.
    let shadow: { mode: string; wouldBlock?: number } = { mode: '' };
    for (let attempt = 0; attempt < 50 && shadow.wouldBlock !== 3; attempt++) {
      shadow = (await usage(tokens.superAdmin)).body.data.strategies[2];
      if (shadow.wouldBlock !== 3) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(shadow).toMatchObject({ path: '/api/ping/:id', mode: 'shadow', wouldBlock: 3, totalCallers: 1 });
  });

  it('issue 17: the deny list is read with the read action and changed only with the configure action, each change logged with the admin\'s email', async () => {
    const deny = (token: string, body: object) => app.request.post('/ratelimit/deny').set('Authorization', `Bearer ${token}`).send(body);
    const list = (token: string) => app.request.get('/ratelimit/deny').set('Authorization', `Bearer ${token}`);
    expect([(await list(tokens.viewer)).status, (await list(tokens.editor)).status]).toEqual([200, 403]);
    expect([(await deny(tokens.viewer, { ip: '203.0.113.9' })).status, (await deny(tokens.editor, { ip: '203.0.113.9' })).status]).toEqual([403, 403]);
    const lift = (token: string) => app.request.post('/ratelimit/deny/lift').set('Authorization', `Bearer ${token}`).send({ member: 'header.x-caller:denied' });
    expect((await lift(tokens.viewer)).status).toBe(403);

    expect((await deny(tokens.superAdmin, { strategy: 0, identifier: 'denied' })).body).toEqual({ data: { member: 'header.x-caller:denied' } });
    const refused = await app.request.get('/api/ping').set('x-caller', 'denied');
    expect([refused.status, refused.body]).toEqual([403, { data: null, error: { status: 403, name: 'ForbiddenError', message: 'This caller is denied access', details: {} } }]);
    expect((await lift(tokens.superAdmin)).body).toEqual({ data: { member: 'header.x-caller:denied', lifted: true } });
    expect((await app.request.get('/api/ping').set('x-caller', 'denied')).status).toBe(200);
    expect(logged.filter((line) => line.startsWith('[ratelimit] deny list:'))).toEqual([
      '[ratelimit] deny list: header.x-caller:denied denied until lifted by super@fixture.test',
      '[ratelimit] deny list: header.x-caller:denied lifted by super@fixture.test',
    ]);
  });
});
