// Resetting a caller deletes its counters for one strategy, every method and window, and nothing
// else: identifiers with glob characters never reach other callers' keys.
import { readUsage, resetCaller } from '../../../server/src/admin-api/usage-service';
import { hit, startAdminStore, type AdminStoreFixture } from './support';

let store: AdminStoreFixture;
beforeAll(async () => {
  store = await startAdminStore();
});
afterAll(() => store.close());

it('lets a blocked caller in again and leaves the others counted', async () => {
  const config = store.config({
    prefix: 'reset',
    strategy: [
      { methods: ['GET', 'POST'], path: '/api/*', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 2, window: '1h' } },
      { methods: ['GET'], path: '/api/articles', identifierSource: 'ip', limiter: { algorithm: 'sliding-window', tokens: 2, window: '1h' } },
    ],
  });
  await hit(store.redis, config, 0, 'GET', 'blocked', 3);
  await hit(store.redis, config, 0, 'POST', 'blocked', 1);
  await hit(store.redis, config, 1, 'GET', 'blocked', 1);
  await hit(store.redis, config, 0, 'GET', 'blocked-too', 1);

  expect(await resetCaller(store.redis, config, 0, 'blocked')).toBe(2);

  const report = await readUsage(store.redis, config);
  expect(report.strategies[0].callers.map((caller) => `${caller.method} ${caller.identifier} ${caller.used}`)).toEqual(['GET blocked-too 1']);
  expect(report.strategies[1].callers.map((caller) => `${caller.method} ${caller.identifier} ${caller.used}`)).toEqual(['GET blocked 1']);
  expect(await hit(store.redis, config, 0, 'GET', 'blocked', 1)).toEqual([true]);
});

it.each(['*', 'a*', 'a?', '[ab]', 'a\\'])('resetting %p touches no other caller', async (glob) => {
  const prefix = `reset-glob-${glob.length}-${glob.charCodeAt(1) || 0}`;
  const config = store.config({ prefix, strategy: [{ methods: ['GET'], path: '/api/*', identifierSource: 'ip', limiter: { algorithm: 'token-bucket', tokens: 2, window: '1h' } }] });
  for (const identifier of ['a', 'ab', 'a*', 'b', glob]) await hit(store.redis, config, 0, 'GET', identifier, 1);

  expect(await resetCaller(store.redis, config, 0, glob)).toBe(1);
  const left = (await readUsage(store.redis, config)).strategies[0].callers.map((caller) => caller.identifier).sort();
  expect(left).toEqual(['a', 'ab', 'a*', 'b'].filter((identifier) => identifier !== glob).sort());
});

it('refuses a strategy that does not exist', async () => {
  const config = store.config({ prefix: 'reset-none', strategy: [] });
  await expect(resetCaller(store.redis, config, 0, 'x')).rejects.toThrow('strategy must be the index of a configured strategy (none is configured), not 0');
});
