// Every limited response carries the rate-limit headers chosen by `headers` (IETF draft fields,
// legacy X-RateLimit-*, both, none); refusals add Retry-After; unlimited routes get none.
import { type KvRestServer, limitedApp, startKvRestServer, strategy } from './support';

describe('rate-limit headers', () => {
  let kv: KvRestServer;
  beforeAll(async () => {
    kv = await startKvRestServer();
  });
  afterAll(() => kv.close());

  let prefixCounter = 0;
  const appWith = (headers?: string) =>
    limitedApp({ url: kv.url, token: kv.token, prefix: `h${++prefixCounter}`, ...(headers ? { headers } : {}), strategy: [strategy({}, { tokens: 2, window: '1h' })] });

  it('sends RateLimit-Policy and RateLimit by default, on 200 and on 429 with Retry-After', async () => {
    const app = appWith();
    try {
      const first = await app.request.get('/limited');
      expect(first.status).toBe(200);
      expect(first.headers['ratelimit-policy']).toBe('2;w=3600');
      expect(first.headers.ratelimit).toMatch(/^limit=2, remaining=1, reset=(\d+)$/);
      expect(Number(/reset=(\d+)$/.exec(first.headers.ratelimit)![1])).toBeLessThanOrEqual(3600);
      expect(first.headers['retry-after']).toBeUndefined();
      expect(first.headers['x-ratelimit-limit']).toBeUndefined();
      await app.request.get('/limited');
      const refused = await app.request.get('/limited');
      expect(refused.status).toBe(429);
      expect(refused.headers.ratelimit).toMatch(/^limit=2, remaining=0, reset=\d+$/);
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(3600);
    } finally {
      app.close();
    }
  });

  it('sends X-RateLimit-Limit, -Remaining and -Reset (epoch seconds) with headers: legacy', async () => {
    const app = appWith('legacy');
    try {
      const before = Math.floor(Date.now() / 1000);
      const first = await app.request.get('/limited');
      expect(first.headers['x-ratelimit-limit']).toBe('2');
      expect(first.headers['x-ratelimit-remaining']).toBe('1');
      const reset = Number(first.headers['x-ratelimit-reset']);
      expect(reset).toBeGreaterThanOrEqual(before);
      expect(reset).toBeLessThanOrEqual(before + 3601);
      expect(first.headers.ratelimit).toBeUndefined();
    } finally {
      app.close();
    }
  });

  it('sends both families with headers: both, and none but Retry-After with headers: none', async () => {
    const both = appWith('both');
    const none = appWith('none');
    try {
      const answer = await both.request.get('/limited');
      expect([answer.headers.ratelimit !== undefined, answer.headers['x-ratelimit-remaining']]).toEqual([true, '1']);
      const quiet = [await none.request.get('/limited'), await none.request.get('/limited'), await none.request.get('/limited')];
      expect(quiet.map((response) => response.status)).toEqual([200, 200, 429]);
      for (const response of quiet) expect(Object.keys(response.headers).filter((name) => name.includes('ratelimit'))).toEqual([]);
      expect(Number(quiet[2].headers['retry-after'])).toBeGreaterThanOrEqual(1);
    } finally {
      both.close();
      none.close();
    }
  });

  it('leaves responses of routes no strategy covers alone', async () => {
    const app = appWith();
    try {
      const other = await app.request.get('/elsewhere');
      expect(other.status).toBe(200);
      expect(Object.keys(other.headers).filter((name) => name.includes('ratelimit'))).toEqual([]);
    } finally {
      app.close();
    }
  });
});
