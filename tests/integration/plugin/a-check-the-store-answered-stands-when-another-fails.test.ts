// Review after issue 34's per-master Cluster breakers: one command of a request's round trip can fail
// while the others answer (a master down, a foreign live value on one strategy). The middleware then
// dropped every answer: failureMode closed answered 503 and kept the tokens the answered strategies
// took (a caller 503'd twice had spent both its tokens elsewhere), open let through a caller the
// answered strategy had refused, and local counted the answered strategies again in memory. Now what
// the store answered stands; only the unanswered checks follow the failure mode, and a 503 gives back
// what the answered checks took. Strategy A (fixed window of 2) answers; strategy B's live key holds
// "abc", so B's answer is no verdict.
import { liveLimitKey } from '../../../server/src/limiter/live-limit-scope';
import { appsClosedAfterEach, limitedApp, statuses, storeForSuite, strategy } from './support';

const store = storeForSuite();
const apps = appsClosedAfterEach();

async function appWithOneFailingStrategy(failureMode: string) {
  const prefix = `one-failing-${failureMode}`;
  const app = limitedApp({
    url: store.kv.url,
    token: store.kv.token,
    prefix,
    failureMode,
    strategy: [strategy({ identifierSource: 'header.x-caller' }, { tokens: 2 }), strategy({ identifierSource: 'header.x-caller' }, { algorithm: 'sliding-window', tokens: 100 })],
  });
  apps.push(app);
  const foreignKey = liveLimitKey(`${prefix}:live:GET:/limited:sliding-window.1h`);
  await store.redis.set(foreignKey, 'abc');
  const get = () => app.request.get('/limited').set('x-caller', 'a');
  return { get, clearForeignValue: () => store.redis.del(foreignKey) };
}

describe('a check the store answered stands when another check of the request fails', () => {
  it('failureMode closed: the 503s give back the tokens the answered strategy took', async () => {
    const { get, clearForeignValue } = await appWithOneFailingStrategy('closed');
    const during = await statuses(get, 2);
    await clearForeignValue();
    expect([during, await statuses(get, 3)]).toEqual([
      [503, 503],
      [200, 200, 429],
    ]);
  });

  it('failureMode open: a caller the answered strategy refuses is refused', async () => {
    const { get } = await appWithOneFailingStrategy('open');
    expect(await statuses(get, 3)).toEqual([200, 200, 429]);
  });
});
