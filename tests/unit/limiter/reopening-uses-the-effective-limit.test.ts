// How long a sliding-window refusal is answered from memory is computed against the limit the store
// has just applied (`result.limit`, a live limit when one is stored), not the configured tokens: with
// a raised live limit the caller is admitted again sooner, and the block cache must not outlast that.
import type { Redis } from '@upstash/redis';
import { parseConfig } from '../../../server/src/config/parse-config';
import { compileConfig } from '../../../server/src/config/rules';
import { compileReopening } from '../../../server/src/limiter/reopening';
import { slidingWindowReopensAt } from '../../../server/src/limiter/sliding-window-reopening';

const NOW = 1_800_000_030_000; // halfway through a one-minute window
beforeEach(() => jest.spyOn(Date, 'now').mockReturnValue(NOW));
afterEach(() => jest.restoreAllMocks());

it('the sliding window reopens when the effective limit, not the configured tokens, admits again', async () => {
  const rule = compileConfig(parseConfig({ url: 'http://127.0.0.1:1', token: 't', strategy: [{ methods: ['GET'], path: '/a', identifierSource: 'ip', limiter: { algorithm: 'sliding-window', tokens: 2, window: '1m' } }] })).rules[0];
  // The current window holds 3, the previous one 8.
  const redis = { mget: () => Promise.resolve(['3', '8']) } as unknown as Redis;
  const reopensAt = compileReopening(rule, redis);

  const underConfig = await reopensAt('GET', '10.0.0.1', 0, 2);
  const underLive = await reopensAt('GET', '10.0.0.1', 0, 6);

  expect([underConfig, underLive]).toEqual([slidingWindowReopensAt(8, 3, NOW, 60_000, 2), slidingWindowReopensAt(8, 3, NOW, 60_000, 6)]);
  expect(underLive! < underConfig!).toBe(true);
});
