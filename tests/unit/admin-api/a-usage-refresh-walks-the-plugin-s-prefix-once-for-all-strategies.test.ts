// Finding 7 of issue 12: the usage view walks the plugin's prefix once for all strategies, so its
// store commands per refresh do not grow with strategies x methods x the size of the keyspace. The
// commands are counted on the way to the real key-value REST server (memory engine), with 100,000
// keys of other applications beside the plugin's.
import { Redis, type Requester, type UpstashRequest, type UpstashResponse } from '@upstash/redis';
import type { Algorithm, WindowText } from '../../../server/src';
import { readUsage } from '../../../server/src/admin-api/usage-service';
import { PipeliningRequester } from '../../../server/src/store/rest/rest-requester';
import { fakeDateOnly, moveToNextWindow } from '../../support/fake-date';
import { hit, startAdminStore, type AdminStoreFixture } from './support';

const UNRELATED_KEYS = 100_000;

/** The store's own client, counting each command it sends by name (a pipeline's commands each count). */
class CountingRequester implements Requester {
  readonly commands = new Map<string, number>();
  constructor(private readonly inner: Requester) {}

  request<TResult = unknown>(request: UpstashRequest): Promise<UpstashResponse<TResult>> {
    const body = request.body as unknown[];
    for (const command of Array.isArray(body[0]) ? (body as unknown[][]) : [body]) {
      const name = String(command[0]).toLowerCase();
      this.commands.set(name, (this.commands.get(name) ?? 0) + 1);
    }
    return this.inner.request<TResult>(request);
  }
}

let store: AdminStoreFixture;
beforeAll(async () => {
  store = await startAdminStore();
  for (let start = 0; start < UNRELATED_KEYS; start += 10_000) {
    const pairs: Record<string, string> = {};
    for (let index = start; index < start + 10_000; index += 1) pairs[`other-app:session:${index}`] = 'x';
    await store.redis.mset(pairs);
  }
});
afterAll(() => store.close());
afterEach(() => jest.useRealTimers());

it('finding 7: one usage refresh of 6 strategies costs 21 SCANs and one read per caller with 100,000 unrelated keys present', async () => {
  const limiter = (algorithm: Algorithm, window: WindowText) => ({ algorithm, tokens: 5, window });
  const config = store.config({
    prefix: 'finding-7',
    strategy: [
      { methods: ['ALL'], path: '*', identifierSource: 'ip', limiter: limiter('sliding-window', '1m') },
      { methods: ['GET', 'POST'], path: '/api/articles/:id', identifierSource: 'ip', limiter: limiter('fixed-window', '10s') },
      { methods: ['GET', 'POST'], path: '/api/articles/:id', identifierSource: 'ip', limiter: limiter('token-bucket', '1h') },
      { methods: ['POST'], path: '/api/auth/local', identifierSource: 'ip', limiter: limiter('fixed-window', '15m') },
      { methods: ['GET'], path: '/api/search', identifierSource: 'header.x-api-key', limiter: limiter('token-bucket', '1m') },
      { methods: ['PUT', 'DELETE', 'PATCH'], path: '/api/*', identifierSource: 'ip', limiter: limiter('sliding-window', '1h') },
    ],
  });
  // At the start of an hour, on a clock that stands still: no window (10 s to 1 h) turns between the
  // requests and the report, however slow the machine.
  fakeDateOnly();
  moveToNextWindow(3_600_000);
  await hit(store.redis, config, 0, 'ALL', '10.0.0.1', 2);
  await hit(store.redis, config, 1, 'GET', '10.0.0.1', 1);
  await hit(store.redis, config, 2, 'POST', '10.0.0.2', 1);
  await hit(store.redis, config, 4, 'GET', 'key-1', 3);
  const counting = new CountingRequester(new PipeliningRequester(store.server.url, store.server.token, 5000));

  const started = performance.now();
  const report = await readUsage(new Redis(counting), config);
  const elapsed = performance.now() - started;

  expect(report.strategies.map((strategy) => strategy.callers.map((caller) => `${caller.method} ${caller.identifier} ${caller.used}`))).toEqual([
    ['ALL 10.0.0.1 2'],
    ['GET 10.0.0.1 1'],
    ['POST 10.0.0.2 1'],
    [],
    ['GET key-1 3'],
    [],
  ]);
  // ceil(100,005 keys / COUNT 5000) SCANs; one MGET of every strategy's live limit; then one read per
  // caller: MGET (sliding), GET (fixed), HMGET (bucket) x2.
  expect(Object.fromEntries(counting.commands)).toEqual({ scan: 21, mget: 2, get: 1, hmget: 2 });
  expect(elapsed).toBeLessThan(2000);
});
