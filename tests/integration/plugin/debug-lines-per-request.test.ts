// A strategy with `debug` on logs one info line per request it applies to (method, route,
// identifier, remaining, allowed or blocked); strategies without it stay silent.
import { type KvRestServer, limitedApp, startKvRestServer, statuses, strategy } from './support';

describe('debug lines', () => {
  let kv: KvRestServer;
  beforeAll(async () => {
    kv = await startKvRestServer();
  });
  afterAll(() => kv.close());

  it.each([true, 'true'] as const)('logs one line per request at info level with debug: %j', async (debug) => {
    const app = limitedApp({ url: kv.url, token: kv.token, prefix: `d${typeof debug}`, strategy: [strategy({ debug }, { tokens: 1 })] });
    try {
      expect(await statuses(() => app.request.get('/limited?page=2'), 3)).toEqual([200, 429, 429]);
      expect(app.logs.info).toHaveLength(3);
      expect(app.logs.info[0]).toMatch(/^\[ratelimit\] GET \/limited -> strategy GET \/limited 127\.0\.0\.1: allowed, remaining 0\/1, reset in \d+s$/);
      expect(app.logs.info[1]).toMatch(/^\[ratelimit\] GET \/limited -> strategy GET \/limited 127\.0\.0\.1: blocked, remaining 0\/1, reset in \d+s$/);
      expect(app.logs.info[2]).toMatch(/blocked, remaining 0\/1, reset in \d+s \(from the block cache\)$/);
      expect(app.logs.warn).toEqual([]);
    } finally {
      app.close();
    }
  });

  it('stays silent for strategies without debug (or with debug: "false")', async () => {
    const app = limitedApp({
      url: kv.url,
      token: kv.token,
      prefix: 'dquiet',
      strategy: [strategy({}, { tokens: 5 }), strategy({ debug: 'false', methods: ['ALL'] }, { tokens: 5 }), strategy({ debug: true, path: '/other' }, { tokens: 5 })],
    });
    try {
      expect(await statuses(() => app.request.get('/limited'), 2)).toEqual([200, 200]);
      expect(app.logs.info).toEqual([]);
      await app.request.post('/other');
      expect(app.logs.info).toEqual([]);
      await app.request.get('/other');
      expect(app.logs.info).toEqual([expect.stringMatching(/^\[ratelimit\] GET \/other -> strategy GET \/other 127\.0\.0\.1: allowed, remaining 4\/5/)]);
    } finally {
      app.close();
    }
  });
});
