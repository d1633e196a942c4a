// Finding 6 of issue 19: Retry-After was capped at a day where the platform applies its backoff
// beyond a day, and X-RateLimit-Reset, -Reset-Requests and -Reset-Tokens were ignored. On a fake
// clock (real sockets), each header's wait is checked to the second.
import { startWorkflowServer, type WorkflowServer } from '../../../mock';
import { settle, useFakeClockWithRealSockets } from './fake-clock';
import { startReceiver } from './receiver';


describe('a retry waits as Retry-After or the rate-limit reset says', () => {
  let server: WorkflowServer;
  beforeEach(async () => {
    useFakeClockWithRealSockets();
    server = await startWorkflowServer();
  });
  afterEach(async () => {
    jest.useRealTimers();
    await server.close();
  });

  /** Triggers one run whose first answer is 503 with `headers`, and returns when the retry came (ms after the first). */
  async function retryWait(headers: Record<string, string>, steps: number[]): Promise<number | undefined> {
    const receiver = await startReceiver([503, 200], headers);
    try {
      await fetch(`${server.url}/v2/trigger/${receiver.url}`, { method: 'POST', headers: { authorization: `Bearer ${server.token}`, 'Upstash-Retries': '1' }, body: 'x' });
      await receiver.waitFor(1);
      await settle();
      let waited = 0;
      for (const step of steps) {
        jest.advanceTimersByTime(step);
        waited += step;
        await settle();
        if (receiver.deliveries.length === 2) return waited;
      }
      return undefined;
    } finally {
      await receiver.close();
    }
  }

  it('finding 6: Retry-After beyond a day gives way to the backoff (12 s for the first retry)', async () => {
    expect(await retryWait({ 'Retry-After': '100000' }, [11_000, 1_500])).toBe(12_500);
  });

  it.each([
    ['X-RateLimit-Reset', '6m5s', 365_000],
    ['X-RateLimit-Reset-Requests', '90', 90_000],
    ['X-RateLimit-Reset-Tokens', '1.5s', 1_500],
    ['Retry-After', '3600', 3_600_000],
  ])('finding 6: %s: %s waits exactly its time', async (name, value, ms) => {
    expect(await retryWait({ [name]: value }, [ms - 1, 1])).toBe(ms);
  });

  it('finding 6: an HTTP date 40 s ahead waits until then', async () => {
    const at = new Date(Date.now() + 40_000).toUTCString();
    expect(await retryWait({ 'X-RateLimit-Reset': at }, [39_000, 1_000])).toBe(40_000);
  });
});
