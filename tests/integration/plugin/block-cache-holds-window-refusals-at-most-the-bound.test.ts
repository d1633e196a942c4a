// Two instances share one store. When one of them raises a strategy's live limit, it forgets its own
// blocked callers of that strategy at once; the other, which only refuses its blocked callers from
// memory and so never sees the new limit, holds a window-algorithm refusal at most blockedCacheMaxMs
// (default 10 s) and then asks the store, which admits under the raised limit. A token bucket's
// refusal lasts to its next refill: a raised limit adds no token before it.
import { advanceDate, fakeDateOnly } from '../../support/fake-date';
import { appsClosedAfterEach, limitedApp, statuses, storeForSuite, strategy, type LimitedApp } from './support';

const store = storeForSuite();
const apps = appsClosedAfterEach();

function twoInstances(prefix: string, limiter: Parameters<typeof strategy>[1], options: Record<string, unknown> = {}): [LimitedApp, LimitedApp] {
  const config = { url: store.kv.url, token: store.kv.token, prefix, ...options, strategy: [strategy({ identifierSource: 'header.x-caller' }, limiter)] };
  const instances: [LimitedApp, LimitedApp] = [limitedApp(config), limitedApp(config)];
  apps.push(...instances);
  return instances;
}

const from = (app: LimitedApp, caller: string) => () => app.request.get('/limited').set('x-caller', caller);

it.each(['fixed-window', 'sliding-window'] as const)('%s: a raised limit frees the changing instance at once and the other within blockedCacheMaxMs', async (algorithm) => {
  fakeDateOnly(1_800_000_000_000);
  const [changing, other] = twoInstances(`bound-${algorithm}`, { algorithm, tokens: 1, window: '1h' });
  expect(await statuses(from(changing, 'a'), 2)).toEqual([200, 429]);
  expect(await statuses(from(other, 'b'), 2)).toEqual([200, 429]);

  await changing.limiter.setLiveLimit(0, 5, 'admin@example.com');
  advanceDate(1);
  const atOnce = [(await from(changing, 'a')()).status, (await from(other, 'b')()).status];
  advanceDate(9_998);
  const justBefore = (await from(other, 'b')()).status;
  advanceDate(1);
  const atTheBound = await from(other, 'b')();

  expect([atOnce, justBefore, atTheBound.status, atTheBound.headers['ratelimit-policy']]).toEqual([[200, 429], 429, 200, '5;w=3600']);
});

it('blockedCacheMaxMs is an option: 2 s lets the raised limit through after 2 s', async () => {
  fakeDateOnly(1_800_000_000_000);
  const [changing, other] = twoInstances('bound-option', { algorithm: 'fixed-window', tokens: 1, window: '1h' }, { blockedCacheMaxMs: 2000 });
  expect(await statuses(from(other, 'b'), 2)).toEqual([200, 429]);
  await changing.limiter.setLiveLimit(0, 5, 'admin@example.com');
  advanceDate(1999);
  const before = (await from(other, 'b')()).status;
  advanceDate(1);
  expect([before, (await from(other, 'b')()).status]).toEqual([429, 200]);
});

it('token-bucket: a refusal is held to the next refill, since a raised limit adds no token to an empty bucket', async () => {
  fakeDateOnly(1_800_000_000_000);
  const [changing, other] = twoInstances('bound-bucket', { algorithm: 'token-bucket', tokens: 1, window: '1m' });
  expect(await statuses(from(other, 'b'), 2)).toEqual([200, 429]);
  await changing.limiter.setLiveLimit(0, 5, 'admin@example.com');
  advanceDate(59_999);
  const beforeRefill = await from(other, 'b')();
  advanceDate(1);
  const afterRefill = await from(other, 'b')();
  // The emptied bucket of 1 expired with its refill (the script's PEXPIRE), so a new one starts full at the raised size.
  expect([beforeRefill.status, afterRefill.status, afterRefill.headers.ratelimit]).toEqual([429, 200, 'limit=5, remaining=4, reset=60']);
});
