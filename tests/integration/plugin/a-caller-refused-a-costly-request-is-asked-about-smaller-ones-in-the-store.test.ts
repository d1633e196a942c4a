// Issue 35 (GraphQL charges above 1 token): a caller refused a request of 7 with 3 tokens left may
// still send requests of 1, and the block cache must not refuse them: it remembers the size of the
// refused request and answers from memory only requests at least as large (a fixed window's and a
// token bucket's refusal are remembered; a sliding window's refusal of more than 1 is not, so the store
// answers the request of 7 again, with what is left). Checked on every algorithm and store: the cache
// was already right here (these passed before the token bucket got its own script, except that its
// refusal then said 0 remained).
import type { Algorithm } from '../../../server/src';
import { describeOnEveryStore, loginCallersOfEachTest, type Seen } from './graphql-charges-on-every-store';

/** What the caller sees for requests of 7, 7, 1, 1, 7, 1, 1 out of 10: the last request of 7 from the block cache (remaining 0), or from the store. */
const seen = (lastSevenFromTheStore: boolean): Seen[] => [
  [200, 3],
  [429, 3],
  [200, 2],
  [200, 1],
  [429, lastSevenFromTheStore ? 1 : 0],
  [200, 0],
  [429, 0],
];

describeOnEveryStore('a caller refused a costly request', (store) => {
  const loginCaller = loginCallersOfEachTest(store);

  it.each<[Algorithm, Seen[]]>([
    ['fixed-window', seen(false)],
    ['sliding-window', seen(true)],
    ['token-bucket', seen(false)],
  ])('on a %s, is asked about its requests of 1 in the store, and refused a request as large from the block cache', async (algorithm, expected) => {
    const caller = loginCaller({ algorithm, tokens: 10, window: '1h' });
    expect(await caller.oneByOne(7, 7, 1, 1, 7, 1, 1)).toEqual(expected);
  });
});
