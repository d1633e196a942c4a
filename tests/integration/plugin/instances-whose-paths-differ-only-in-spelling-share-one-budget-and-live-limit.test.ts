// Issue 34 finding 6 (production review): two instances against one store whose strategies spell one
// route differently (a rolling deploy that renames `:id` to `:documentId`, or changes letter case or
// a trailing slash) count on the same keys, because keys hold the path's canonical form
// (server/src/config/canonical-path.ts). With the path as written each pair admitted 10 of 16
// requests against a shared limit of 5, and a live limit of 1 set on one instance did not apply on
// the other (4 of 4 admitted there).
import { fakeDateOnly } from '../../support/fake-date';
import { appsClosedAfterEach, limitedApp, storeForSuite, strategy, type LimitedApp } from './support';

const store = storeForSuite();
const apps = appsClosedAfterEach();

function instance(prefix: string, path: `/${string}`): LimitedApp {
  const app = limitedApp({ url: store.kv.url, token: store.kv.token, prefix, strategy: [strategy({ path, identifierSource: 'header.x-caller' }, { algorithm: 'fixed-window', tokens: 5, window: '1h' })] });
  apps.push(app);
  return app;
}

describe('instances whose paths differ only in spelling share one budget and live limit', () => {
  it.each<[string, `/${string}`, `/${string}`, string]>([
    ['a renamed parameter', '/api/articles/:id', '/api/articles/:documentId', '/api/articles/7'],
    ['letter case', '/api/articles', '/api/Articles', '/api/articles'],
    ['a trailing slash', '/api/articles', '/api/articles/', '/api/articles'],
  ])('%s: %j on one instance and %j on the other admit 5 of 16 requests together, and a live limit set on one applies on the other', async (_change, pathA, pathB, requestPath) => {
    fakeDateOnly(1_800_000_000_000);
    const prefix = `spelling-${pathB}`;
    const [a, b] = [instance(prefix, pathA), instance(prefix, pathB)];
    const interleaved: number[] = [];
    for (let i = 0; i < 8; i++) for (const app of [a, b]) interleaved.push((await app.request.get(requestPath).set('x-caller', 'shared')).status);

    await a.limiter.setLiveLimit(0, 1, 'ops@example.com');
    const freshOnB: number[] = [];
    for (let i = 0; i < 4; i++) freshOnB.push((await b.request.get(requestPath).set('x-caller', 'fresh')).status);

    expect([interleaved.filter((status) => status === 200).length, freshOnB]).toEqual([5, [200, 429, 429, 429]]);
  });
});
