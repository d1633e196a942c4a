// A token is given back only while the window (or refill interval) it was taken in is current;
// after its reset a refund would grant a token that was never taken, so none is sent.
import { Redis, type Requester, type UpstashRequest, type UpstashResponse } from '@upstash/redis';
import { parseConfig } from '../../../server/src/config/parse-config';
import { compileConfig } from '../../../server/src/config/rules';
import { createLimiter } from '../../../server/src/limiter/create-limiter';
import { giveBack } from '../../../server/src/limiter/token-refunds';

class RecordingRequester implements Requester {
  readonly sent: unknown[] = [];
  async request<TResult = unknown>(request: UpstashRequest): Promise<UpstashResponse<TResult>> {
    this.sent.push(request.body);
    return { result: [0, 1, 5] as TResult };
  }
}

it('refunds tokens whose window is current, as rate -1, and skips those whose window has turned', async () => {
  const config = parseConfig({ url: 'http://127.0.0.1:1', token: 't', strategy: [{ methods: ['GET'], path: '/a', identifierSource: 'ip', limiter: { algorithm: 'token-bucket', tokens: 5, window: '1m' } }] });
  const requester = new RecordingRequester();
  const limiter = createLimiter(compileConfig(config).rules[0], new Redis(requester));
  const now = Date.now();

  await giveBack([
    { limiter, limiterKey: 'current', reset: now + 60_000, tokens: 1 },
    { limiter, limiterKey: 'turned', reset: now - 1, tokens: 1 },
  ]);

  expect(requester.sent).toHaveLength(1);
  // The bucket's key, then the strategy's live-limit key (the refund reads the same limit the count did).
  const [command, , , key, liveKey, , , , , incrementBy] = requester.sent[0] as unknown[];
  expect([command, key, liveKey, incrementBy]).toEqual(['evalsha', '@cms:current', '@cms:live:GET:/a:token-bucket.1m:dynamic:global', -1]);
});
