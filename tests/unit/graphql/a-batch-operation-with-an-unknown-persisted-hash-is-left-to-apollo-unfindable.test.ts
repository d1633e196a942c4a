// Issue 35 review: a batch holding one operation that names a document by a hash the plugin does not
// know was first parsed whole and answered PersistedQueryNotFound, charged 0 (19 large documents
// parsed per request, uncharged), then answered before any parse, as one object for the whole batch,
// which a batching client reads as a failure of every operation (finding 4). Now the batch is charged
// for its other operations, which are parsed and run, and the unknown operation is handed to Apollo
// under a hash no document has, which Apollo answers PersistedQueryNotFound in its place.
import { chargesOf, postedContext, schema } from './support';

describe('a batch with an unknown persisted hash', () => {
  it('is charged for its other operations and hands Apollo a hash no document has', async () => {
    const charges = chargesOf([{ query: ['*'], charge: 'cost' }], { schema });
    const documents = Array.from({ length: 19 }, (_, index) => ({ query: `query Q${index} { articles { title } }` }));
    const hash = 'ab'.repeat(32);
    const ctx = postedContext([...documents, { extensions: { persistedQuery: { version: 1, sha256Hash: hash } } }]);
    const answer = await charges.charge(ctx);
    expect({ answer, unknown: (ctx.request.body as unknown[])[19] }).toEqual({
      answer: { kind: 'charged', charges: [19 * 25] },
      unknown: { extensions: { persistedQuery: { version: 1, sha256Hash: `unknown-to-the-rate-limiter:${hash}` } } },
    });
  });

  it('of one operation is answered PersistedQueryNotFound with Apollo\'s Cache-Control, taking nothing', async () => {
    const charges = chargesOf([{ query: ['*'], charge: 'cost' }], { schema });
    const answer = await charges.charge(postedContext({ extensions: { persistedQuery: { version: 1, sha256Hash: 'ab'.repeat(32) } } }));
    expect(answer).toEqual({
      kind: 'answer',
      charges: [0],
      status: 200,
      message: 'PersistedQueryNotFound',
      code: 'PERSISTED_QUERY_NOT_FOUND',
      headers: { 'Cache-Control': 'private, no-cache, must-revalidate' },
    });
  });
});
