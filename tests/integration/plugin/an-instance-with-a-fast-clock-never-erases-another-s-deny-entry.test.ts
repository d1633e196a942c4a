// Issue 34 finding 4: the deny check compared a timed entry's expiry with the calling instance's
// clock and removed the entry when that clock said it had passed, so one instance whose clock ran an
// hour ahead erased a 10-minute deny for every instance. Now a check never removes an entry: the fast
// instance alone lets the caller in early (by its own clock, as its windows do), the others keep
// refusing, and the admin side removes an entry only once both its clock and the store's (TIME) say
// it has passed. Three instances share one key-value server, on both of its engines; only Date is
// faked, so the store's TIME is the real clock.
import { fakeDateOnly } from '../../support/fake-date';
import { describeEachEngine } from '../../support/kv-servers';
import { appsClosedAfterEach, denyCheckingInstances, storeForSuite, type LimitedApp } from './support';

const HOUR = 3_600_000;

describeEachEngine('a deny entry, with one instance\'s clock an hour ahead', (engine) => {
  const store = storeForSuite(engine);
  const apps = appsClosedAfterEach();
  const instances = (prefix: string): LimitedApp[] => denyCheckingInstances(store, apps, prefix);

  it('a request through the fast instance leaves the entry, and the instances with the right clock keep refusing the caller', async () => {
    const realNow = Date.now();
    fakeDateOnly(realNow);
    const [fast, denying, other] = instances('deny-skew');
    const from = (instance: LimitedApp) => instance.request.get('/limited').set('x-caller', 'pest').then(({ status }) => status);
    const { until } = await denying.limiter.denyCaller({ header: 'x-caller', value: 'pest', duration: '10m' }, 'admin@example.com');
    const seen = [await from(denying)];
    jest.setSystemTime(realNow + HOUR);
    seen.push(await from(fast));
    jest.setSystemTime(realNow);
    seen.push(await from(other), await from(denying));
    expect(seen).toEqual([403, 200, 403, 403]);
    expect(await store.redis.smembers('deny-skew:denyList:all')).toEqual(['header.x-caller:pest']);
    expect((await other.limiter.listDenied()).members.map((denied) => [denied.member, denied.until])).toEqual([['header.x-caller:pest', until]]);
  });

  it('a listing on the fast instance removes no entry the store\'s clock still holds; one past by both clocks is removed', async () => {
    const realNow = Date.now();
    fakeDateOnly(realNow);
    const [fast, denying] = instances('deny-sweep');
    await denying.limiter.denyCaller({ header: 'x-caller', value: 'pest', duration: '10m' }, 'admin@example.com');
    await denying.limiter.denyCaller({ header: 'x-caller', value: 'gone', duration: '10m' }, 'admin@example.com');
    // An entry that ended a minute ago by every clock.
    await store.redis.zadd('deny-sweep:denyList:until', { score: realNow - 60_000, member: 'header.x-caller:gone' });
    jest.setSystemTime(realNow + HOUR);
    expect((await fast.limiter.listDenied()).members).toEqual([]);
    expect([await store.redis.smembers('deny-sweep:denyList:all'), await store.redis.zrange('deny-sweep:denyList:until', 0, -1), await store.redis.hkeys('deny-sweep:denyList:meta')]).toEqual([
      ['header.x-caller:pest'],
      ['header.x-caller:pest'],
      ['header.x-caller:pest'],
    ]);
    jest.setSystemTime(realNow);
    expect((await denying.request.get('/limited').set('x-caller', 'pest')).status).toBe(403);
  });
});
