// Finding 3: the deny check rides the limits' round trip, but when any strategy's command failed in
// that round trip (a script error: a foreign value such as "abc" in a sliding window's live key makes
// the library's script compare nil), the request went down the failure path and the deny check's
// answer was dropped: with failureMode 'open' (the default) a denied caller was let through
// unchecked, with 'closed' it got 503 instead of 403. A deny the store has answered must refuse,
// whatever else in the round trip failed, and give back the tokens the strategies that did answer took.
import { liveLimitKey } from '../../../server/src/limiter/live-limit-scope';
import { appsClosedAfterEach, limitedApp, statuses, storeForSuite, strategy, type LimitedApp } from './support';

const store = storeForSuite();
const apps = appsClosedAfterEach();

function appOf(prefix: string, failureMode: string): LimitedApp {
  const app = limitedApp({
    url: store.kv.url,
    token: store.kv.token,
    prefix,
    failureMode,
    strategy: [strategy({ identifierSource: 'header.x-caller' }, { tokens: 3 }), strategy({ path: '*' }, { algorithm: 'sliding-window', tokens: 100 })],
  });
  apps.push(app);
  return app;
}

const get = (app: LimitedApp) => () => app.request.get('/limited').set('x-caller', 'flooder');

describe('a denied caller is refused when another command of its round trip fails', () => {
  it.each(['open', 'closed', 'local'])('failureMode %s: 403 while a strategy fails, and the strategy that answered keeps its tokens', async (failureMode) => {
    const prefix = `finding-3-${failureMode}`;
    const app = appOf(prefix, failureMode);
    await store.redis.set(liveLimitKey(`${prefix}:live:GET:*:sliding-window.1h`), 'abc');
    await app.limiter.denyCaller({ header: 'x-caller', value: 'flooder' }, 'admin@example.com');
    // Another instance, which has nothing in memory: its verdict comes from the store's answer.
    const other = appOf(prefix, failureMode);

    const denied = await statuses(get(other), 3);
    await app.limiter.liftDenied({ member: 'header.x-caller:flooder' }, 'admin@example.com');
    await store.redis.del(liveLimitKey(`${prefix}:live:GET:*:sliding-window.1h`));

    expect([denied, await statuses(get(app), 4)]).toEqual([
      [403, 403, 403],
      [200, 200, 200, 429],
    ]);
  });
});
