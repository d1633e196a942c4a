// Issue 35 review, finding 1: the plugin remembers documents by the SHA-256 of their UTF-8, and a
// lone surrogate (the JSON escape `\ud800`) encodes as U+FFFD does, so a text that does not parse and
// a runnable twin with U+FFFD in its place shared a digest. Sent first, the ill-formed text was
// remembered as unparsable and the twin was then charged 1 as that: a login strategy of 5 let 300
// logins run. The other way round, Apollo's document store (keyed by the same lossy hash) ran the
// twin's document for the ill-formed text the plugin charged 1 once it had forgotten the twin. A
// document that is not well-formed UTF-16 is now answered 400 by the plugin before any lookup, and
// never remembered. Runs through Apollo Server, whose document store makes the second case.
import { apolloAppsForSuite } from './apollo-app';

const loginStrategy = { graphql: { mutation: ['login'] }, identifierSource: 'ip' as const, limiter: { algorithm: 'fixed-window' as const, tokens: 5, window: '1h' as const } };
const aliasedLogins = (count: number) => `mutation Evil { ${Array.from({ length: count }, (_, index) => `a${index}: login(identifier: "x") { jwt }`).join(' ')} }`;
/** A JSON body whose query is `text` followed by a lone surrogate, as a JSON escape. */
const withLoneSurrogate = (text: string, operationName: string) => `{"query": ${JSON.stringify(text).slice(0, -1)}\\ud800", "operationName": "${operationName}"}`;
const refusal = {
  errors: [{ message: 'This document holds a lone surrogate (such as \\ud800), which is not text: send it as well-formed UTF-16', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }],
};

describe('a document holding a lone surrogate', () => {
  const open = apolloAppsForSuite();

  it('is answered 400 by the plugin, and its U+FFFD twin is charged for what it runs', async () => {
    const app = await open({ strategy: [loginStrategy] });
    const text = `${aliasedLogins(100)} # `;
    const illFormed = await app.request.post('/graphql').set('Content-Type', 'application/json').send(withLoneSurrogate(text, 'Evil'));
    const twins: number[] = [];
    // Each twin is too costly (100 logins against 5) and takes 1 token, as the ill-formed text did: 5 in all.
    for (let index = 0; index < 4; index++) twins.push((await app.request.post('/graphql').send({ query: `${text}\ufffd` })).status);
    expect([illFormed.status, illFormed.body, twins, app.runs.login]).toEqual([400, refusal, [400, 400, 400, 400], undefined]);
  });

  it('is answered 400 by the plugin when Apollo holds its twin and the plugin has forgotten it', async () => {
    const app = await open({ strategy: [loginStrategy] });
    const text = `query Cheap { me { name } } ${aliasedLogins(100)} # `;
    const twin = await app.request.post('/graphql').send({ query: `${text}\ufffd`, operationName: 'Cheap' });
    // The plugin remembers 1,000 documents: these push the twin out; Apollo's document store keeps it.
    for (let index = 0; index < 1000; index++) await app.request.post('/graphql').send({ query: `{ me { name } } # ${index}` });
    const illFormed: number[] = [];
    for (let index = 0; index < 3; index++) illFormed.push((await app.request.post('/graphql').set('Content-Type', 'application/json').send(withLoneSurrogate(text, 'Evil'))).status);
    expect([twin.status, illFormed, app.runs.login]).toEqual([200, [400, 400, 400], undefined]);
  });
});
