// A refused request spends no token: when one strategy refuses, the strategies that admitted the
// request get their token back, for each algorithm, so a blocked caller's other budgets stay whole.
import { type KvRestServer, limitedApp, startKvRestServer, statuses, strategy } from './support';

describe('refusals', () => {
  let kv: KvRestServer;
  beforeAll(async () => {
    kv = await startKvRestServer();
  });
  afterAll(() => kv.close());

  it.each(['fixed-window', 'sliding-window', 'token-bucket'] as const)('a refusal consumes nothing: a %s budget beside a refusing strategy keeps every token the refused requests took', async (algorithm) => {
    const app = limitedApp({
      url: kv.url,
      token: kv.token,
      prefix: `refund-${algorithm}`,
      // Every refused request reaches the store (no block cache), so each one takes and gives back.
      blockedCacheSize: 0,
      strategy: [strategy({ path: '*' }, { algorithm, tokens: 5, window: '1h' }), strategy({}, { algorithm: 'fixed-window', tokens: 2, window: '1h' })],
    });
    try {
      expect(await statuses(() => app.request.get('/limited'), 6)).toEqual([200, 200, 429, 429, 429, 429]);
      // Only the 5-token budget applies here: the two admitted requests took 2, the refused ones nothing.
      expect(await statuses(() => app.request.get('/elsewhere'), 4)).toEqual([200, 200, 200, 429]);
    } finally {
      app.close();
    }
  });
});
