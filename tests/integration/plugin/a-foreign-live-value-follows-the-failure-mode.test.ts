// Finding 4: the library's scripts read a strategy's live key themselves, so a value someone else
// stored there (the hosted console, redis-cli) decided requests in ways nobody chose, silently and
// differently per algorithm: "abc" refused every caller of a fixed window but let every caller of a
// sliding window through as a "store failure"; "0" or "-5" refused everyone; a huge number let
// everyone through while the headers still said `limit=2`. A store answer made under a live value
// that is not a whole number from 1 to MAX_TOKENS is not a verdict: the strategy follows failureMode
// like any answer the store cannot give, and one warning names the strategy and its live key.
import { liveLimitKey } from '../../../server/src/limiter/live-limit-scope';
import { appsClosedAfterEach, limitedApp, statuses, storeForSuite, strategy, type LimitedApp } from './support';

const store = storeForSuite();
const apps = appsClosedAfterEach();

const ALGORITHMS = ['fixed-window', 'sliding-window', 'token-bucket'] as const;
const FOREIGN_VALUES = ['abc', '0', '-5', '99999999999999999999'];

async function appWithForeignValue(algorithm: (typeof ALGORITHMS)[number], value: string, failureMode: string): Promise<{ app: LimitedApp; key: string }> {
  const prefix = `finding-4-${algorithm}-${value}-${failureMode}`;
  const app = limitedApp({ url: store.kv.url, token: store.kv.token, prefix, failureMode, strategy: [strategy({ identifierSource: 'header.x-caller' }, { algorithm, tokens: 2 })] });
  apps.push(app);
  const key = liveLimitKey(`${prefix}:live:GET:/limited:${algorithm}.1h`);
  await store.redis.set(key, value);
  return { app, key };
}

const get = (app: LimitedApp) => () => app.request.get('/limited').set('x-caller', 'a');
/** The warning, whatever the reason in parentheses (the script's answer, or its error as the store words it). */
const warning = (key: string) =>
  expect.stringMatching(new RegExp(`^${`[ratelimit] strategy[0] (GET /limited): the live limit at ${key} is not a whole number from 1 to 1000000000, so the store's answers for it are not used (failureMode applies) until "Back to config" removes it`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\((the script answered no limit|the script answered limit -?\\d+|the script failed: .+)\\)$`));

describe('a foreign live value follows the failure mode, the same for every algorithm', () => {
  it.each(ALGORITHMS.flatMap((algorithm) => FOREIGN_VALUES.map((value) => [algorithm, value] as const)))('%s with %j: failureMode local limits in memory by the configured tokens, with one warning', async (algorithm, value) => {
    const { app, key } = await appWithForeignValue(algorithm, value, 'local');
    expect([await statuses(get(app), 3), app.logs.warn]).toEqual([[200, 200, 429], [warning(key)]]);
  });

  it.each(ALGORITHMS)('%s with "abc": failureMode closed answers 503, open lets through and counts it', async (algorithm) => {
    const closed = await appWithForeignValue(algorithm, 'abc', 'closed');
    const open = await appWithForeignValue(algorithm, 'abc', 'open');
    expect([await statuses(get(closed.app), 2), await statuses(get(open.app), 3), (await open.app.limiter.readUsage()).failOpen]).toEqual([[503, 503], [200, 200, 200], { admitted: 3, outage: false }]);
  });
});

it('finding 4: an error reply that is no script\'s (a refused token) stays an outage, logged as one', async () => {
  const app = limitedApp({ url: store.kv.url, token: 'not-the-token', prefix: 'finding-4-token', strategy: [strategy({}, { tokens: 2 })] });
  apps.push(app);
  expect([await statuses(() => app.request.get('/limited'), 2), app.logs.warn.map((line) => line.startsWith('[ratelimit] the key-value store failed ('))]).toEqual([[200, 200], [true]]);
});
