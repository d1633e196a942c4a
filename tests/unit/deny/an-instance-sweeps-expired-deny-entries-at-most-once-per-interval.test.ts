// Issue 34 review, left over (LOW): the deny check that meets a timed entry past its end now has its
// instance sweep the list off the request path (server/src/deny/expired-entry-sweeps.ts). A flood of
// requests from such a caller must not become a flood of sweeps: one sweep (TIME, then the sweep's
// script) for any number of meetings, none again within SWEEP_INTERVAL_MS, and one after it. On the
// embedded store (the memory engine, in this process); every command it is sent is recorded.
import { Redis, type Requester } from '@upstash/redis';
import { denyListKeys } from '../../../server/src/deny/deny-members';
import { ExpiredEntrySweeps, SWEEP_INTERVAL_MS } from '../../../server/src/deny/expired-entry-sweeps';
import { EmbeddedRequester } from '../../../server/src/store/embedded/embedded-requester';
import { eventually } from '../../fixtures/eventually';

const keys = denyListKeys('sweeps');

describe('an instance meeting deny entries past their end', () => {
  const store = new EmbeddedRequester();
  afterAll(() => store.close());
  const sent: string[] = [];
  const recorded: Requester = { request: (request) => (sent.push(String((request.body as unknown[])[0]).toLowerCase()), store.request(request)) };
  const redis = new Redis(recorded);

  /** Adds `member` to the list as ended a minute ago, as the plugin writes a timed entry. */
  async function ended(member: string): Promise<void> {
    await redis.sadd(keys.all, member);
    await redis.zadd(keys.until, { score: Date.now() - 60_000, member });
  }
  const listed = () => redis.smembers(keys.all);

  it('sweeps once for a flood of meetings, not again within the interval, and again after it', async () => {
    // This instance's monotonic clock, moved on by `ahead` when the test says the interval has passed.
    const realNow = performance.now.bind(performance);
    let ahead = 0;
    jest.spyOn(performance, 'now').mockImplementation(() => realNow() + ahead);
    const sweeps = new ExpiredEntrySweeps(redis, keys);
    await ended('a');
    sent.length = 0;
    for (let meeting = 0; meeting < 100; meeting++) sweeps.met();
    const afterTheFlood = await eventually(listed, (members) => members.length === 0);
    const flood = sent.splice(0);

    await ended('b');
    sent.length = 0;
    sweeps.met();
    // A turn for a sweep that should not start, then the list as it stands.
    await new Promise((resolve) => setImmediate(resolve));
    const withinTheInterval = [await listed(), sent.splice(0).filter((command) => command !== 'smembers')];

    ahead = SWEEP_INTERVAL_MS;
    sweeps.met();
    const afterTheInterval = await eventually(listed, (members) => members.length === 0);
    jest.restoreAllMocks();
    expect({ afterTheFlood, flood: flood.filter((command) => command !== 'smembers'), withinTheInterval, afterTheInterval }).toEqual({
      afterTheFlood: [],
      flood: ['time', 'eval'],
      withinTheInterval: [['b'], []],
      afterTheInterval: [],
    });
  });
});
