// Issue 35 (GraphQL charges above 1 token): on a fixed window, a request charged more tokens than the
// caller has left is refused without being counted, so requests arriving at the same time are
// counted against what the caller really has, and the refusal says what is left.
// @upstash/ratelimit's fixed-window script adds the charge before it compares: a refused request of 5
// was counted, and the plugin gave the 5 back with a second call afterwards; a request of 1 reaching
// the store in between saw the inflated count and was refused too, and both refusals said 0 remained.
// The plugin's own script (shared/charge-scripts.ts) compares first, on every store.
import { describeOnEveryStore, loginCallersOfEachTest } from './graphql-charges-on-every-store';

describeOnEveryStore('a fixed window charged several tokens', (store) => {
  const loginCaller = loginCallersOfEachTest(store);

  it('counts a request of 1 sent with a refused request of 5 against the 3 the caller has, and says what is left', async () => {
    const caller = loginCaller({ algorithm: 'fixed-window', tokens: 10, window: '1h' });
    expect(await caller.oneByOne(7)).toEqual([[200, 3]]);
    expect(await caller.together(5, 1)).toEqual([
      [429, 3],
      [200, 2],
    ]);
    expect(await caller.oneByOne(2, 1)).toEqual([
      [200, 0],
      [429, 0],
    ]);
  });
});
