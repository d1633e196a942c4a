// Issue 35 (GraphQL charges above 1 token): on a sliding window, a request charged more tokens than
// the caller has left is refused whole and spends nothing, and its refusal says what is left.
// @upstash/ratelimit's sliding-window script refuses only a caller already at its limit; below it,
// it adds the whole charge, so a refused request of 5 with 3 left spent those 3 (and 2 more), and
// answered remaining 0 either way. The plugin's own script (shared/charge-scripts.ts) takes a
// request whole or not at all, on every store.
import { advanceDate } from '../../support/fake-date';
import { describeOnEveryStore, loginCallersOfEachTest } from './graphql-charges-on-every-store';

describeOnEveryStore('a sliding window charged several tokens', (store) => {
  const loginCaller = loginCallersOfEachTest(store);

  it('refuses a request of 5 with 3 left without spending the 3, says 3 remain, and then admits a request of 3', async () => {
    const caller = loginCaller({ algorithm: 'sliding-window', tokens: 10, window: '1h' });
    expect(await caller.oneByOne(7, 5, 3, 1)).toEqual([
      [200, 3],
      [429, 3],
      [200, 0],
      [429, 0],
    ]);
  });

  it('weighs the previous window for a charge as for a request of 1', async () => {
    const caller = loginCaller({ algorithm: 'sliding-window', tokens: 10, window: '1h' });
    await caller.oneByOne(8);
    // Three quarters into the next window, a quarter of the previous 8 still counts: 2 used, 8 left.
    advanceDate(3_600_000 + 2_700_000);
    expect(await caller.oneByOne(9, 8, 1)).toEqual([
      [429, 8],
      [200, 0],
      [429, 0],
    ]);
  });
});
