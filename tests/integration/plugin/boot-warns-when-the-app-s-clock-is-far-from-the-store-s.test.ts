// Issue 34 finding 5: every window follows the clock of the instance serving the request
// (@upstash/ratelimit takes Date.now()), so instances whose clocks disagree give a caller more than
// its limit near a window's edge (one instance 3 s ahead: 20 through where the limit was 10), and
// nothing said so. At boot the plugin now reads the store's TIME and warns when this instance's clock
// is more than a second from it, naming the offset and what to do; a clock within the bound, and a
// store that does not answer (already a warning of its own), add no line. On the key-value server
// (memory engine, in this process: its TIME is the real clock) and on a real Redis over redis://.
// Only Date.now is moved, as an instance's wrong clock would be.
import strapiServer from '../../../strapi-server';
import { closedPortUrl } from '../../fixtures/ports';
import { ThrowawayRedisServer } from '../../fixtures/redis-server';
import { fakeStrapi } from '../../support/fake-strapi';
import { describeWithRedisBinary } from '../../support/installed-program';
import { storeForSuite } from './support';

const store = storeForSuite();
const strategy = { methods: ['GET'], path: '/api/*', identifierSource: 'ip', limiter: { algorithm: 'sliding-window', tokens: 10, window: '10s' } };
const realNow = Date.now.bind(Date);

/** The warning lines of a boot with this instance's clock `offsetMs` from the real one. */
async function bootWarnings(pluginConfig: Record<string, unknown>, offsetMs: number): Promise<string[]> {
  jest.spyOn(Date, 'now').mockImplementation(() => realNow() + offsetMs);
  try {
    const { strapi, lines } = fakeStrapi({ 'plugin::ratelimit': { strategy: [strategy], ...pluginConfig }, middlewares: [] });
    await strapiServer.bootstrap({ strapi });
    strapiServer.destroy({ strapi });
    return lines.warn.map((line) => line.replace(/to within \d+ ms/, 'to within <n> ms'));
  } finally {
    jest.restoreAllMocks();
  }
}

const warning = (apart: string, store: string): string =>
  `[ratelimit] this instance's clock is ${apart} the clock of ${store} (measured at boot, to within <n> ms): ` +
  "windows, token refills and timed denies follow each instance's own clock, so instances whose clocks disagree let a caller through more or less than its limit " +
  "near a window's edge (up to twice the limit once they are a window apart); keep every instance's clock in sync with NTP (README: Production, Clocks)";

describe('boot, on the key-value server', () => {
  const kv = () => ({ url: store.kv.url, token: store.kv.token });

  it('warns when this instance\'s clock is 3 s ahead of the store\'s, or 5 s behind it, naming the offset and NTP', async () => {
    const storeName = `the key-value store at ${store.kv.url}/`;
    expect([await bootWarnings(kv(), 3000), await bootWarnings(kv(), -5000)]).toEqual([[warning('3.0 s ahead of', storeName)], [warning('5.0 s behind', storeName)]]);
  });

  it('says nothing of a clock within a second of the store\'s, or of a store that does not answer (its own warning says that)', async () => {
    expect(await bootWarnings(kv(), 0)).toEqual([]);
    expect(await bootWarnings(kv(), 500)).toEqual([]);
    expect(await bootWarnings({ url: await closedPortUrl(), token: 't', timeout: 500 }, 3000)).toEqual([expect.stringMatching(/did not answer at boot/)]);
  });

  it('says nothing on the embedded store, which runs in this process', async () => {
    expect(await bootWarnings({}, 3000)).toEqual([]);
  });
});

describeWithRedisBinary('boot, on Redis over redis://', () => {
  let redis: ThrowawayRedisServer;
  beforeAll(async () => {
    redis = await ThrowawayRedisServer.start();
  });
  afterAll(() => redis?.remove());

  it('warns when this instance\'s clock is 3 s ahead of Redis\'s, and says nothing when it agrees', async () => {
    const storeName = `Redis at redis://127.0.0.1:${redis.port}`;
    expect([await bootWarnings({ url: redis.url }, 3000), await bootWarnings({ url: redis.url }, 0)]).toEqual([[warning('3.0 s ahead of', storeName)], []]);
  });
});
