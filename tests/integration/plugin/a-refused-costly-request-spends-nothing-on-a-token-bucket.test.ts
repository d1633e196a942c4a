// Issue 35 (GraphQL charges above 1 token): on a token bucket, a request charged more tokens than the
// caller has left is refused whole and spends nothing, and its refusal says what is left, so a client
// can size a smaller request.
// @upstash/ratelimit's token-bucket script already refused whole, writing nothing, but answered a
// refusal with -1 in place of the tokens left, so a caller with 3 left was told 0. The plugin's own
// script (shared/charge-scripts.ts) answers the tokens left, on every store.
import { advanceDate } from '../../support/fake-date';
import { describeOnEveryStore, loginCallersOfEachTest } from './graphql-charges-on-every-store';

describeOnEveryStore('a token bucket charged several tokens', (store) => {
  const loginCaller = loginCallersOfEachTest(store);

  it('refuses a request of 5 with 3 left without spending the 3, says 3 remain, and then admits a request of 3', async () => {
    const caller = loginCaller({ algorithm: 'token-bucket', tokens: 10, refillRate: 1, window: '1h' });
    expect(await caller.oneByOne(7, 5, 3, 1)).toEqual([
      [200, 3],
      [429, 3],
      [200, 0],
      [429, 0],
    ]);
  });

  it('refills a charged bucket by refillRate per whole window, as for requests of 1, and refuses a charge the refill does not cover', async () => {
    const caller = loginCaller({ algorithm: 'token-bucket', tokens: 10, refillRate: 2, window: '1h' });
    await caller.oneByOne(9);
    // Two whole windows later: 1 + 2 × 2 = 5 left.
    advanceDate(2 * 3_600_000 + 1_000);
    expect(await caller.oneByOne(6, 5, 2)).toEqual([
      [429, 5],
      [200, 0],
      [429, 0],
    ]);
  });
});
