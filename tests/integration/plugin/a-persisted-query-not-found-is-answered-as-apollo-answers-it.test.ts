// Issue 35 review, finding 4: the plugin answers PersistedQueryNotFound itself for a hash it does not
// know (Apollo may still hold a document the plugin has forgotten, and would run it uncharged). That
// answer lacked Apollo's `Cache-Control: private, no-cache, must-revalidate`, so a CDN could keep it
// for a GET; and for a batch it was one object instead of the array of per-operation results Apollo
// answers, so a batching client (Apollo Client's BatchHttpLink) failed every operation instead of
// sending the unknown one's text again. A batch's unknown hashes are now left to Apollo under a hash
// no document has: Apollo answers them PersistedQueryNotFound in their places and runs the others,
// which the plugin charges. Each answer here is compared with Apollo's own, without the plugin.
import { createHash } from 'node:crypto';
import { apolloAppsForSuite, type ApolloApp } from './apollo-app';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const byHash = (text: string) => ({ extensions: { persistedQuery: { version: 1, sha256Hash: sha256(text) } } });
const articlesStrategy = { graphql: { query: ['articles'] }, identifierSource: 'ip' as const, limiter: { algorithm: 'fixed-window' as const, tokens: 50, window: '1h' as const } };

/** What a client sees of an answer: its status, its Cache-Control and its body. */
const seen = (answer: { status: number; headers: Record<string, string>; body: unknown }) => [answer.status, answer.headers['cache-control'], answer.body];

describe('a persisted query whose hash the plugin does not know', () => {
  const open = apolloAppsForSuite();

  it('is answered over GET with what Apollo answers, its Cache-Control included', async () => {
    const unknownGet = (app: ApolloApp) => app.request.get(`/graphql?${new URLSearchParams({ extensions: JSON.stringify(byHash('{ articles { title } }').extensions) })}`);
    const limited = await unknownGet(await open({ strategy: [articlesStrategy] }));
    const apollo = await unknownGet(await open(undefined));
    expect(seen(limited)).toEqual(seen(apollo));
    expect(seen(limited)).toEqual([200, 'private, no-cache, must-revalidate', { errors: [{ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }] }]);
  });

  it('in a batch, is answered in its place as Apollo answers it while the batch runs its other operations, charged', async () => {
    const batch = [{ query: '{ articles { title } }' }, byHash('{ me { name } }'), { query: '{ me { name } }' }];
    const limitedApp = await open({ strategy: [articlesStrategy] }, { allowBatchedHttpRequests: true });
    const limited = await limitedApp.request.post('/graphql').send(batch);
    const apolloApp = await open(undefined, { allowBatchedHttpRequests: true });
    const apollo = await apolloApp.request.post('/graphql').send(batch);
    // The articles query took its token: what is left of the 50.
    const remaining = /remaining=(\d+)/.exec(limited.headers.ratelimit)?.[1];
    expect([seen(limited), limitedApp.runs, remaining]).toEqual([seen(apollo), apolloApp.runs, '49']);
    expect(seen(limited)).toEqual([
      200,
      'private, no-cache, must-revalidate',
      [{ data: { articles: [{ title: 't' }] } }, { errors: [{ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }] }, { data: { me: { name: 'me' } } }],
    ]);
  });
});
