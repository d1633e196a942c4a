// Issue 34 finding 1: the key of the header identifiers' HMAC was derived from the whole `url`
// string, so two instances on one Redis, one given `redis://127.0.0.1:P/0` and the other
// `redis://localhost:P/0`, keyed an API key apart: two counters, each admitting the whole limit.
// The key is now one per deployment, created once in the store and read by every instance
// (server/src/http/header-hash-key.ts), or the config's `headerHashSecret`.
import { appsClosedAfterEach, limitedApp, statuses, strategy, type LimitedApp } from '../plugin/support';
import { describeWithRedisOfTheRun } from '../../support/installed-program';
import { freshPrefix } from './support';
import { RedisClient } from '../../fixtures/redis-client';
import { headerHashKeyName } from '../../../server/src/http/header-hash-key';

/** The run's Redis, as `redis://<host>:<port>/0` with the host spelt `host`. */
function spelt(host: string): string {
  const url = new URL(process.env.REDIS_URL!);
  url.hostname = host;
  url.pathname = '/0';
  return url.toString();
}

describeWithRedisOfTheRun('a header caller on two instances that spell the Redis url differently', () => {
  const apps = appsClosedAfterEach();
  const instance = (url: string, config: Record<string, unknown>): LimitedApp => {
    const app = limitedApp({ url, ...config });
    apps.push(app);
    return app;
  };
  const config = (name: string, extra: Record<string, unknown> = {}) => ({
    prefix: freshPrefix(name),
    blockedCacheSize: 0,
    strategy: [strategy({ identifierSource: 'header.x-api-key' }, { tokens: 2 })],
    ...extra,
  });

  it('shares one counter: the limit holds across both', async () => {
    const shared = config('spellings');
    const [a, b] = [instance(spelt('127.0.0.1'), shared), instance(spelt('localhost'), shared)];
    let turn = 0;
    const send = () => (turn++ % 2 === 0 ? a : b).request.get('/limited').set('x-api-key', 'k1');
    expect(await statuses(send, 4)).toEqual([200, 200, 429, 429]);
    // One key, created by whichever instance asked first, with no expiry.
    expect(await RedisClient.ask(process.env.REDIS_URL!, ['TTL', headerHashKeyName(shared.prefix)])).toBe(-1);
  });

  it('keys the caller alike on both: the same hmac= identifier in the usage view', async () => {
    const shared = config('usage');
    const [a, b] = [instance(spelt('127.0.0.1'), shared), instance(spelt('localhost'), shared)];
    await a.request.get('/limited').set('x-api-key', 'k1');
    await b.request.get('/limited').set('x-api-key', 'k1');
    const callers = (await a.limiter.readUsage()).strategies[0].callers.map(({ identifier, used }) => [identifier.slice(0, 5), used]);
    expect(callers).toEqual([['hmac=', 2]]);
  });

  it('with headerHashSecret, keys the caller by it and writes no key to the store', async () => {
    const secret = 'a deployment secret of at least 32 characters';
    const shared = config('secret', { headerHashSecret: secret });
    const [a, b] = [instance(spelt('127.0.0.1'), shared), instance(spelt('localhost'), shared)];
    let turn = 0;
    const send = () => (turn++ % 2 === 0 ? a : b).request.get('/limited').set('x-api-key', 'k1');
    expect(await statuses(send, 3)).toEqual([200, 200, 429]);
    expect(await RedisClient.ask(process.env.REDIS_URL!, ['EXISTS', headerHashKeyName(shared.prefix)])).toBe(0);
  });
});
