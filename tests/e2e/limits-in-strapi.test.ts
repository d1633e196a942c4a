// The plugin inside a real Strapi 5 app: each algorithm limits real content-API routes, `*` covers
// /api but not the admin panel, header identifiers, CORS on 429, and debug lines in Strapi's log.
import { Redis } from '@upstash/redis';
import { startKvRestServer, type KvRestServer } from '../../mock';
import { bootStrapiApp, type StrapiApp } from '../support/strapi-app';
import { windowsHaveRoomForTheSuite } from '../support/window-room';

// Hour-long windows: the tests' requests of a window follow one another, and the wait for room
// before them (window-room.ts) is rarely needed (a minute's windows needed it one run in three).
const STRATEGY = [
  { methods: ['GET'], path: '/api/ping', identifierSource: 'ip', debug: true, limiter: { algorithm: 'fixed-window', tokens: 3, window: '1h' } },
  { methods: ['GET'], path: '/api/articles', identifierSource: 'ip', limiter: { algorithm: 'sliding-window', tokens: 3, window: '1h' } },
  { methods: ['GET'], path: '/api/ping/:id', identifierSource: 'ip', limiter: { algorithm: 'token-bucket', tokens: 3, window: '1m', refillRate: 1 } },
  { methods: ['POST'], path: '/api/ping', identifierSource: 'header.x-api-key', limiter: { algorithm: 'fixed-window', tokens: 2, window: '1h' } },
  { methods: ['ALL'], path: '*', identifierSource: 'header.x-everything', limiter: { algorithm: 'fixed-window', tokens: 1000, window: '1h' } },
];

describe('rate limits in a real Strapi app', () => {
  let kv: KvRestServer;
  let app: StrapiApp;
  const logged: string[] = [];

  beforeAll(async () => {
    kv = await startKvRestServer();
    app = await bootStrapiApp({
      config: { url: kv.url, token: kv.token, strategy: STRATEGY },
    });
    const log = app.strapi.log as unknown as { info: (message: string) => void };
    const info = log.info.bind(log);
    jest.spyOn(log, 'info').mockImplementation((message: string) => {
      logged.push(message);
      info(message);
    });
  });
  windowsHaveRoomForTheSuite({ strategy: STRATEGY });
  afterAll(async () => {
    await app?.close();
    jest.restoreAllMocks();
    await kv?.close();
  });

  async function statuses(send: () => Promise<{ status: number }>, count: number): Promise<number[]> {
    const seen: number[] = [];
    for (let i = 0; i < count; i++) seen.push((await send()).status);
    return seen;
  }

  it.each([
    ['fixed-window', '/api/ping'],
    ['sliding-window', '/api/articles'],
    ['token-bucket', '/api/ping/7'],
  ])('%s admits the configured tokens on %s, then answers 429', async (_algorithm, path) => {
    expect(await statuses(() => app.request.get(path), 5)).toEqual([200, 200, 200, 429, 429]);
  });

  it('answers 429 with Strapi\'s RateLimitError, the refusing limit in its details, Retry-After and rate-limit headers', async () => {
    const before = Date.now();
    const refused = await app.request.get('/api/ping');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      data: null,
      error: { status: 429, name: 'RateLimitError', message: 'Too many requests, please try again later', details: { limit: 3, remaining: 0, reset: expect.any(Number) } },
    });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(Math.ceil((refused.body.error.details.reset - before) / 1000)).toBeGreaterThanOrEqual(retryAfter);
    expect(refused.headers.ratelimit).toMatch(/^limit=3, remaining=0, reset=\d+$/);
  });

  it('keeps CORS headers on a 429', async () => {
    const refused = await app.request.get('/api/ping').set('Origin', 'http://example.test');
    expect(refused.status).toBe(429);
    expect(refused.headers['access-control-allow-origin']).toBeDefined();
  });

  it('limits by a header identifier, each caller on its own', async () => {
    const send = (key: string) => () => app.request.post('/api/ping').set('x-api-key', key);
    expect(await statuses(send('alice'), 3)).toEqual([200, 200, 429]);
    expect(await statuses(send('bob'), 1)).toEqual([200]);
    expect(await statuses(send('ALICE'), 1)).toEqual([200]);
  });

  it('applies a lone * to content-API routes but not to the admin panel', async () => {
    const redis = new Redis({ url: kv.url, token: kv.token });
    await app.request.get('/admin/init').set('x-everything', 'admin-caller');
    await app.request.get('/api/no-such-route').set('x-everything', 'api-caller');
    const keys = await redis.keys('@cms:ALL:*');
    expect(keys.some((key) => key.includes('api-caller'))).toBe(true);
    expect(keys.some((key) => key.includes('admin-caller'))).toBe(false);
  });

  it('writes one debug line per request of a debug strategy, at a level Strapi shows by default', async () => {
    logged.length = 0;
    await app.request.get('/api/ping');
    await app.request.get('/api/articles');
    expect(logged.filter((line) => line.startsWith('[ratelimit]'))).toEqual([expect.stringMatching(/^\[ratelimit\] GET \/api\/ping -> strategy GET \/api\/ping \S+: blocked, remaining 0\/3/)]);
    expect((app.strapi.log as unknown as { isLevelEnabled(level: string): boolean }).isLevelEnabled('info')).toBe(true);
  });
});
