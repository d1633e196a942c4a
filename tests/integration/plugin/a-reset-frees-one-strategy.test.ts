// Issue 18 defect 1, through the middleware: resetting a caller on one strategy (its store keys and
// its block cache entry) leaves that caller blocked by the other strategies of the same route,
// method and caller, until they are reset too.
import { type KvRestServer, limitedApp, startKvRestServer, statuses, strategy } from './support';

describe('reset', () => {
  let kv: KvRestServer;
  beforeAll(async () => {
    kv = await startKvRestServer();
  });
  afterAll(() => kv.close());

  it('issue 18 defect 1: a reset of the burst window keeps the sustained window blocking, in the store and in memory', async () => {
    const app = limitedApp({
      url: kv.url,
      token: kv.token,
      prefix: 'reset-one',
      strategy: [strategy({}, { algorithm: 'fixed-window', tokens: 1, window: '1h' }), strategy({}, { algorithm: 'sliding-window', tokens: 1, window: '2h' })],
    });
    const reset = async (index: number) => {
      expect(await app.limiter.resetCaller(index, '127.0.0.1')).toBe(1);
    };
    try {
      expect(await statuses(() => app.request.get('/limited'), 2)).toEqual([200, 429]);
      await reset(0);
      expect(await statuses(() => app.request.get('/limited'), 1)).toEqual([429]);
      await reset(1);
      expect(await statuses(() => app.request.get('/limited'), 2)).toEqual([200, 429]);
    } finally {
      app.close();
    }
  });
});
