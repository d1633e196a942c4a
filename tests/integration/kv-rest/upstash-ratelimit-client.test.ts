// The official @upstash/ratelimit client against our server: exact admissions for each algorithm
// (their scripts arrive with the `#!lua flags=allow-key-locking` line), getRemaining,
// resetUsedTokens and analytics read back with Analytics.
import { Analytics, Ratelimit } from '@upstash/ratelimit';
import { Redis } from '@upstash/redis';
import type { KvRestServer } from '../../../mock';
import { fakeDateOnly, moveToNextWindow } from '../../support/fake-date';
import { describeEachEngine, startServer } from '../../support/kv-servers';

type Limiter = ReturnType<typeof Ratelimit.fixedWindow>;

describeEachEngine('@upstash/ratelimit client', (engine) => {
  let server: KvRestServer;
  let redis: Redis;
  beforeAll(async () => {
    server = await startServer(engine);
    redis = new Redis({ url: server.url, token: server.token, retry: false });
  });
  afterAll(() => server.close());

  const limiter = (prefix: string, algorithm: Limiter, analytics = false) =>
    new Ratelimit({ redis, limiter: algorithm, prefix, analytics, ephemeralCache: false });

  async function admissions(ratelimit: Ratelimit, id: string, attempts: number): Promise<boolean[]> {
    const outcomes: boolean[] = [];
    for (let i = 0; i < attempts; i++) outcomes.push((await ratelimit.limit(id)).success);
    return outcomes;
  }

  it.each([
    ['fixed window', Ratelimit.fixedWindow(3, '60 s')],
    ['sliding window', Ratelimit.slidingWindow(3, '60 s')],
    ['token bucket', Ratelimit.tokenBucket(1, '60 s', 3)],
  ])('%s admits exactly the limit, then refuses', async (name, algorithm) => {
    const ratelimit = limiter(`rl-${name.replace(' ', '-')}`, algorithm);
    expect(await admissions(ratelimit, 'caller', 5)).toEqual([true, true, true, false, false]);
    expect(await admissions(ratelimit, 'someone-else', 1)).toEqual([true]);
  });

  it('reports remaining tokens and the reset time', async () => {
    const ratelimit = limiter('rl-remaining', Ratelimit.slidingWindow(5, '60 s'));
    const first = await ratelimit.limit('caller');
    expect([first.success, first.limit, first.remaining]).toEqual([true, 5, 4]);
    expect(first.reset).toBeGreaterThan(Date.now());
    await ratelimit.limit('caller');
    const remaining = await ratelimit.getRemaining('caller');
    expect(remaining.remaining).toBe(3);
    expect(remaining.limit).toBe(5);
  });

  it('starts over after resetUsedTokens', async () => {
    const ratelimit = limiter('rl-reset', Ratelimit.fixedWindow(2, '60 s'));
    expect(await admissions(ratelimit, 'caller', 3)).toEqual([true, true, false]);
    await ratelimit.resetUsedTokens('caller');
    expect(await admissions(ratelimit, 'caller', 1)).toEqual([true]);
  });

  it('lets a fixed window open again when it ends, and not a millisecond before', async () => {
    // On a fake clock: fixed windows start at multiples of their length, and the library names each
    // window's key after it, so the next window is a new key on either engine.
    const WINDOW_MS = 1000;
    const ratelimit = limiter('rl-expiry', Ratelimit.fixedWindow(1, `${WINDOW_MS} ms`));
    fakeDateOnly();
    try {
      const start = moveToNextWindow(WINDOW_MS);
      expect(await admissions(ratelimit, 'caller', 2)).toEqual([true, false]);
      jest.setSystemTime(start + WINDOW_MS - 1);
      expect(await admissions(ratelimit, 'caller', 1)).toEqual([false]);
      jest.setSystemTime(start + WINDOW_MS);
      expect(await admissions(ratelimit, 'caller', 1)).toEqual([true]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('records analytics that Analytics reads back', async () => {
    const ratelimit = limiter('rl-analytics', Ratelimit.fixedWindow(1, '60 s'), true);
    for (const id of ['a', 'a', 'b']) {
      const result = await ratelimit.limit(id);
      await result.pending;
    }
    const analytics = new Analytics({ redis, prefix: 'rl-analytics' });
    const usage = await analytics.getUsage(Date.now() - 60 * 60 * 1000);
    expect(usage).toEqual({ a: { success: 1, blocked: 1 }, b: { success: 1, blocked: 0 } });
  });
});
