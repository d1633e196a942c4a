// Test support window-room.ts: a suite whose app counts on the real clock starts its tests with room
// in each fixed or sliding window, so none of its requests meets a boundary (CI: a 15m login limit, a
// boundary at 10:30:00 between two requests of one test of graphql-login-strategy).
import { SUITE_ROOM_MS, untilItsWindowsHaveRoom } from '../../support/window-room';

const config = (...limiters: Array<{ algorithm: string; window: string }>) => ({ strategy: limiters.map((limiter) => ({ limiter: { tokens: 5, ...limiter } })) });

/** Where the wait for `pluginConfig` ends when it starts at `start`: the time it resolved. */
async function waitEnds(pluginConfig: Record<string, unknown>, start: string): Promise<string> {
  jest.useFakeTimers({ now: Date.parse(start) });
  let resolvedAt: string | undefined;
  const waiting = untilItsWindowsHaveRoom(pluginConfig).then(() => (resolvedAt = new Date().toISOString()));
  await jest.advanceTimersByTimeAsync(60 * 60_000);
  await waiting;
  return resolvedAt!;
}

describe('a suite on the real clock', () => {
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('starts at once when each window has the room its tests need', async () => {
    expect(await waitEnds(config({ algorithm: 'fixed-window', window: '15m' }, { algorithm: 'sliding-window', window: '1h' }), '2026-11-29T10:28:30.000Z')).toBe('2026-11-29T10:28:30.000Z');
  });

  it('waits for the next window of a fixed or sliding window that is about to end', async () => {
    expect([
      await waitEnds(config({ algorithm: 'fixed-window', window: '15m' }), '2026-11-29T10:29:55.000Z'),
      await waitEnds(config({ algorithm: 'sliding-window', window: '15m' }, { algorithm: 'fixed-window', window: '1h' }), '2026-11-29T10:29:50.000Z'),
    ]).toEqual(['2026-11-29T10:30:00.001Z', '2026-11-29T10:30:00.001Z']);
  });

  it('leaves token buckets alone, which refill from their own last use, not from the epoch', async () => {
    expect(await waitEnds(config({ algorithm: 'token-bucket', window: '15m' }), '2026-11-29T10:29:55.000Z')).toBe('2026-11-29T10:29:55.000Z');
  });

  it('refuses windows of which one does not divide the longest, whose waits could outlast the hook', async () => {
    await expect(untilItsWindowsHaveRoom(config({ algorithm: 'fixed-window', window: '2m' }, { algorithm: 'sliding-window', window: '3m' }))).rejects.toThrow(
      'The 120000 ms window does not divide the 180000 ms one: a suite on the real clock gives its windows room only when each divides the longest',
    );
  });

  it('fails, rather than waiting for ever, when Date.now() stands still', async () => {
    jest.useFakeTimers({ doNotFake: ['Date'] });
    jest.spyOn(Date, 'now').mockReturnValue(Date.parse('2026-11-29T10:59:30.000Z'));
    const waiting = untilItsWindowsHaveRoom(config({ algorithm: 'fixed-window', window: '1h' }));
    const outcome = waiting.then(() => 'resolved', (failure: Error) => failure.message);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(await outcome).toBe('Date.now() did not move while waiting for room in the windows: a suite on a faked Date moves its windows itself (fake-date.ts)');
  });

  it('refuses a window too short to leave it any room', async () => {
    await expect(untilItsWindowsHaveRoom(config({ algorithm: 'fixed-window', window: '90s' }))).rejects.toThrow(`A 90000 ms window leaves a suite on the real clock no room of ${SUITE_ROOM_MS} ms: use a window of at least ${2 * SUITE_ROOM_MS} ms, or a fake clock (fake-date.ts)`);
  });
});
