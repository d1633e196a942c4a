// Each algorithm, through the Koa middleware and a real store: exactly `tokens` admitted, then 429
// with Retry-After; windows and refills open again at the exact millisecond, on a fake clock (the
// store runs in-process, so faking Date moves the limiter, the library and the store together).
import { advanceDate, fakeDateOnly, moveToNextWindow } from '../../support/fake-date';
import { type KvRestServer, limitedApp, startKvRestServer, statuses, strategy } from './support';

describe('algorithms', () => {
  let kv: KvRestServer;
  beforeAll(async () => {
    kv = await startKvRestServer();
  });
  afterAll(() => kv.close());
  beforeEach(() => fakeDateOnly());
  afterEach(() => jest.useRealTimers());

  const config = (limiter: Record<string, unknown>) => ({ url: kv.url, token: kv.token, prefix: `t${Math.random()}`, strategy: [strategy({}, limiter)] });

  it.each(['fixed-window', 'sliding-window', 'token-bucket'])('%s admits exactly its tokens, then refuses', async (algorithm) => {
    const app = limitedApp(config({ algorithm, tokens: 3, window: '1h' }));
    try {
      expect(await statuses(() => app.request.get('/limited'), 5)).toEqual([200, 200, 200, 429, 429]);
      const refused = await app.request.get('/limited');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.body).toEqual({
        data: null,
        error: { status: 429, name: 'TooManyRequestsError', message: 'Too many requests, please try again later', details: { limit: 3, remaining: 0, reset: expect.any(Number) } },
      });
    } finally {
      app.close();
    }
  });

  it('fixed-window opens again when its window ends, and not before', async () => {
    const window = 500;
    const app = limitedApp(config({ algorithm: 'fixed-window', tokens: 2, window: `${window}ms` }));
    try {
      const start = moveToNextWindow(window);
      expect(await statuses(() => app.request.get('/limited'), 3)).toEqual([200, 200, 429]);
      jest.setSystemTime(start + window - 1);
      expect(await statuses(() => app.request.get('/limited'), 1)).toEqual([429]);
      jest.setSystemTime(start + window);
      expect(await statuses(() => app.request.get('/limited'), 3)).toEqual([200, 200, 429]);
    } finally {
      app.close();
    }
  });

  it('sliding-window still counts the previous window just after it ends, then opens fully', async () => {
    const window = 1500;
    const app = limitedApp(config({ algorithm: 'sliding-window', tokens: 4, window: `${window}ms` }));
    try {
      // A fraction p into a window, the previous one weighs floor((1 - p) * 4): 3 while 0 < p <= 1/4.
      moveToNextWindow(window);
      expect(await statuses(() => app.request.get('/limited'), 5)).toEqual([200, 200, 200, 200, 429]);
      moveToNextWindow(window);
      advanceDate(30);
      expect(await statuses(() => app.request.get('/limited'), 2)).toEqual([200, 429]);
      // One more window: the previous one held a single request, which now weighs floor(< 1) = 0.
      moveToNextWindow(window);
      advanceDate(30);
      expect(await statuses(() => app.request.get('/limited'), 5)).toEqual([200, 200, 200, 200, 429]);
    } finally {
      app.close();
    }
  });

  it('token-bucket refills refillRate tokens per window, not a millisecond before', async () => {
    const app = limitedApp(config({ algorithm: 'token-bucket', tokens: 2, window: '300ms', refillRate: 1 }));
    try {
      expect(await statuses(() => app.request.get('/limited'), 3)).toEqual([200, 200, 429]);
      advanceDate(299);
      expect(await statuses(() => app.request.get('/limited'), 1)).toEqual([429]);
      advanceDate(1);
      expect(await statuses(() => app.request.get('/limited'), 2)).toEqual([200, 429]);
      advanceDate(700);
      expect(await statuses(() => app.request.get('/limited'), 3)).toEqual([200, 200, 429]);
    } finally {
      app.close();
    }
  });

  it.each(['fixed-window', 'sliding-window', 'token-bucket'])('%s admits exactly 10 of 100 concurrent requests against tokens: 10', async (algorithm) => {
    // A burst straddling a window boundary would rightly get two windows' tokens: the clock stands at a window's start.
    moveToNextWindow(3_600_000);
    const app = limitedApp(config({ algorithm, tokens: 10, window: '1h' }));
    try {
      const all = await Promise.all(Array.from({ length: 100 }, () => app.request.get('/limited')));
      expect(all.filter((response) => response.status === 200)).toHaveLength(10);
      expect(all.filter((response) => response.status === 429)).toHaveLength(90);
    } finally {
      app.close();
    }
  });
});
