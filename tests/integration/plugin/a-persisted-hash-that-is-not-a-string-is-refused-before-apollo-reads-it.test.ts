// Issue 35 review, finding 2: the plugin read `extensions.persistedQuery.sha256Hash` only when it was
// a string, and charged a request with any other hash 1, as one without a query. Apollo Server 4 looks
// the hash up as `'apq:' + hash`, so `["<hex>"]` found the document `"<hex>"` names and Apollo ran
// it: a login strategy of 5 let 400 of 100 aliased logins run, and GET `extensions=` did the same. A hash given that
// is not a string is now answered 400 by the plugin (beside a query, Apollo answers it 400 too).
import { createHash } from 'node:crypto';
import { apolloAppsForSuite } from './apollo-app';

const fixed = (tokens: number) => ({ algorithm: 'fixed-window' as const, tokens, window: '1h' as const });
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const persisted = (sha256Hash: unknown) => ({ persistedQuery: { version: 1, sha256Hash } });
const refusal = { errors: [{ message: 'extensions.persistedQuery.sha256Hash must be a string: the SHA-256 of the document in hex', extensions: { code: 'BAD_REQUEST' } }] };

describe('a persisted query whose hash is not a string', () => {
  const open = apolloAppsForSuite();

  it('is answered 400 by the plugin, over POST and GET, and nothing runs', async () => {
    const app = await open({ strategy: [{ graphql: { mutation: ['login'], query: ['articles'] }, identifierSource: 'ip', limiter: fixed(5) }] });
    const logins = `mutation Evil { ${Array.from({ length: 60 }, (_, index) => `a${index}: login(identifier: "x") { jwt }`).join(' ')} }`;
    const reads = `query Reads { ${Array.from({ length: 30 }, (_, index) => `r${index}: articles { title }`).join(' ')} }`;
    const document = `query Cheap { me { name } } ${logins} ${reads}`;
    const hash = sha256(document);
    // Apollo registers the document while running its cheap operation, which takes nothing.
    const registered = await app.request.post('/graphql').send({ query: document, operationName: 'Cheap', extensions: persisted(hash) });
    const posted: number[] = [];
    for (let index = 0; index < 3; index++) posted.push((await app.request.post('/graphql').send({ operationName: 'Evil', extensions: persisted([hash]) })).status);
    const search = new URLSearchParams({ operationName: 'Reads', extensions: JSON.stringify(persisted([hash])) });
    const got = await app.request.get(`/graphql?${search}`);
    const numbered = await app.request.post('/graphql').send({ operationName: 'Evil', extensions: persisted(7) });
    expect([registered.status, posted, got.status, got.body, numbered.status, app.runs]).toEqual([200, [400, 400, 400], 400, refusal, 400, { me: 1 }]);
  });
});
