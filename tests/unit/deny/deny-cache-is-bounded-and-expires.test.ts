// The per-instance memory of deny hits: a hit is answered from memory until the cache time or the
// deny's own expiry, whichever is first; a lift forgets it at once; the memory holds at most its
// capacity; 0 turns it off. The clock is the `now` the middleware passes, so time is the test's.
// The store side is a stand-in (deny-store-stand-in.ts): the real script runs in the integration suite.
import { DenyCheck } from '../../../server/src/deny/deny-check';
import { denyListKeys } from '../../../server/src/deny/deny-members';
import { storeAnswering } from './deny-store-stand-in';

const keys = denyListKeys('p');

describe('the deny check\'s memory', () => {
  it('answers a hit from memory for cacheMs, then asks the store again', async () => {
    const { scripts, sent } = storeAnswering([0, -1]);
    const check = new DenyCheck(scripts, keys, 10_000, 100);
    expect(await check.check(['header.x-caller:a', '203.0.113.9'], 1_000)).toBe('203.0.113.9');
    expect(sent).toEqual(['SMISMEMBER p:denyList:all header.x-caller:a 203.0.113.9', 'EVALSHA deny-check p:denyList:all p:denyList:until 1000 header.x-caller:a 203.0.113.9']);
    expect([check.cached(['203.0.113.9'], 10_999), check.cached(['203.0.113.9'], 11_000), check.cached(['198.51.100.1'], 2_000)]).toEqual(['203.0.113.9', undefined, undefined]);
  });

  it('remembers a timed deny no longer than its expiry', async () => {
    const check = new DenyCheck(storeAnswering([5_000]).scripts, keys, 10_000, 100);
    expect(await check.check(['a'], 1_000)).toBe('a');
    expect([check.cached(['a'], 4_999), check.cached(['a'], 5_000)]).toEqual(['a', undefined]);
  });

  it('forgets a lifted member at once', () => {
    const check = new DenyCheck(storeAnswering([]).scripts, keys, 10_000, 100);
    check.remember('a', -1, 0);
    check.forget('a');
    expect(check.cached(['a'], 1)).toBeUndefined();
  });

  it('holds at most its capacity, dropping the oldest hit first', () => {
    const check = new DenyCheck(storeAnswering([]).scripts, keys, 60_000, 3);
    for (let caller = 0; caller < 1_000; caller++) check.remember(`c${caller}`, -1, 0);
    expect(['c996', 'c997', 'c998', 'c999'].map((member) => check.cached([member], 1))).toEqual([undefined, 'c997', 'c998', 'c999']);
  });

  it('remembers nothing with cacheMs 0: every request asks the store', async () => {
    const check = new DenyCheck(storeAnswering([-1]).scripts, keys, 0, 100);
    expect(await check.check(['a'], 1_000)).toBe('a');
    check.remember('b', -1, 1_000);
    expect(check.cached(['a', 'b'], 1_000)).toBeUndefined();
  });
});
