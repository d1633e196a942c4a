// Issue 34 (the admin page, tried as a new user would): a caller with 0 remaining that had not
// been refused was labelled BLOCKED. Now the usage report's `blocked` says the caller was refused
// before its reset (a fixed window's count past its limit, which every instance sees; for the other
// algorithms, which count no refusal, the serving instance's own refusal, or would-be refusal on a
// shadow strategy), and a caller that only
// used its last token is at its limit (`remaining: 0, blocked: false`: "At limit" on the page).
// Through the plugin's limiter against the key-value REST server, for the three algorithms.
import { fakeDateOnly } from '../../support/fake-date';
import { appsClosedAfterEach, limitedApp, statuses, storeForSuite, strategy, type LimitedApp } from './support';

const store = storeForSuite();
const apps = appsClosedAfterEach();

function appOf(prefix: string, limiter: Parameters<typeof strategy>[1], mode: 'enforce' | 'shadow' = 'enforce'): LimitedApp {
  const app = limitedApp({ url: store.kv.url, token: store.kv.token, prefix, strategy: [strategy({ identifierSource: 'header.x-caller', mode }, limiter)] });
  apps.push(app);
  return app;
}

const get = (app: LimitedApp) => () => app.request.get('/limited').set('x-caller', 'a');
const state = async (app: LimitedApp) => (await app.limiter.readUsage()).strategies[0].callers.map(({ remaining, blocked }) => ({ remaining, blocked }));

describe('a caller at its limit is blocked only once it was refused', () => {
  afterEach(() => jest.useRealTimers());

  it.each([
    ['fixed-window', { algorithm: 'fixed-window', tokens: 2, window: '1h' }],
    ['sliding-window', { algorithm: 'sliding-window', tokens: 2, window: '1h' }],
    ['token-bucket', { algorithm: 'token-bucket', tokens: 2, refillRate: 1, window: '1h' }],
  ] as const)('%s: at its limit after its last token, blocked after a refusal', async (algorithm, limiter) => {
    fakeDateOnly(1_800_000_000_000);
    const app = appOf(`at-limit-${algorithm}`, limiter);
    const admitted = await statuses(get(app), 2);
    const atLimit = await state(app);
    const refused = await statuses(get(app), 1);
    expect([admitted, atLimit, refused, await state(app)]).toEqual([[200, 200], [{ remaining: 0, blocked: false }], [429], [{ remaining: 0, blocked: true }]]);
  });

  it('a shadow sliding window: at its limit after its last token, blocked (would be) after a request it would have refused', async () => {
    fakeDateOnly(1_800_000_000_000);
    const app = appOf('at-limit-shadow', { algorithm: 'sliding-window', tokens: 1, window: '1h' }, 'shadow');
    const admitted = await statuses(get(app), 1);
    const atLimit = await state(app);
    const letThrough = await statuses(get(app), 1);
    expect([admitted, atLimit, letThrough, await state(app)]).toEqual([[200], [{ remaining: 0, blocked: false }], [200], [{ remaining: 0, blocked: true }]]);
  });

  it('another instance on the same store sees a fixed window\'s refusal in its count', async () => {
    fakeDateOnly(1_800_000_000_000);
    const limiter = { algorithm: 'fixed-window', tokens: 1, window: '1h' } as const;
    const serving = appOf('at-limit-shared', limiter);
    const other = appOf('at-limit-shared', limiter);
    expect(await statuses(get(serving), 2)).toEqual([200, 429]);
    expect([await state(serving), await state(other)]).toEqual([[{ remaining: 0, blocked: true }], [{ remaining: 0, blocked: true }]]);
  });
});
