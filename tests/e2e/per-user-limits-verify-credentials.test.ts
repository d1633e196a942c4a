// `identifierSource: 'user'` in a real Strapi: a request with a valid API token is limited as
// `token=<id>` from whatever IP it comes; a request with no credential, an unknown, expired or
// forged one is limited by its IP. Credentials are verified with Strapi's own API-token service.
import { Redis } from '@upstash/redis';
import { startKvRestServer, type KvRestServer } from '../../mock';
import { bootStrapiApp, type StrapiApp } from '../support/strapi-app';

interface ApiTokenService {
  create(attributes: object): Promise<{ id: number; accessKey: string }>;
}

describe('identifierSource user', () => {
  let kv: KvRestServer;
  let app: StrapiApp;
  const tokens: Record<string, { id: number; accessKey: string }> = {};

  beforeAll(async () => {
    kv = await startKvRestServer();
    app = await bootStrapiApp({
      proxy: { koa: true, maxIpsCount: 1 },
      config: {
        url: kv.url,
        token: kv.token,
        strategy: [{ methods: ['GET'], path: '/api/ping', identifierSource: 'user', limiter: { algorithm: 'fixed-window', tokens: 2, window: '1h' } }],
      },
    });
    const strapi = app.strapi as unknown as { service(uid: string): ApiTokenService; db: { query(uid: string): { update(query: object): Promise<unknown> } } };
    const service = strapi.service('admin::api-token-content-api');
    for (const name of ['valid', 'expired']) tokens[name] = await service.create({ name, description: '', type: 'read-only', lifespan: null, kind: 'content-api' });
    await strapi.db.query('admin::api-token').update({ where: { id: tokens.expired.id }, data: { expiresAt: new Date(Date.now() - 60_000) } });
  });
  afterAll(async () => {
    await app?.close();
    await kv?.close();
  });

  const ping = (ip: string, authorization?: string) => {
    const request = app.request.get('/api/ping').set('X-Forwarded-For', ip);
    return authorization ? request.set('Authorization', authorization) : request;
  };
  const statuses = async (sends: Array<() => PromiseLike<{ status: number }>>) => {
    const seen: number[] = [];
    for (const send of sends) seen.push((await send()).status);
    return seen;
  };

  it('limits a valid API token as one caller across IPs, under token=<id>', async () => {
    const bearer = `Bearer ${tokens.valid.accessKey}`;
    expect(await statuses([() => ping('198.51.100.1', bearer), () => ping('198.51.100.2', bearer), () => ping('198.51.100.3', bearer)])).toEqual([200, 200, 429]);
    const keys = await new Redis({ url: kv.url, token: kv.token }).keys('@cms:GET:/api/ping:token=*');
    expect(keys.map((key) => key.split(':')[3])).toEqual([`token=${tokens.valid.id}`]);
  });

  it.each([
    ['no credential', 1, undefined],
    ['an unknown API token', 2, 'Bearer 0123456789abcdef'],
    ['an expired API token', 3, 'expired'],
    ['a forged JWT', 4, 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJpZCI6MX0.c2lnbmF0dXJl'],
  ])('limits a request with %s by its IP (case %i)', async (_case, net, credential) => {
    const authorization = credential === 'expired' ? `Bearer ${tokens.expired.accessKey}` : credential;
    const [ip, otherIp] = [`203.0.113.${net}`, `192.0.2.${net}`];
    expect(await statuses([() => ping(ip, authorization), () => ping(ip, authorization), () => ping(ip, authorization), () => ping(otherIp, authorization)])).toEqual([200, 200, 429, 200]);
  });
});
