// Issue 35 review: a batch holding one operation that names a document by a hash the plugin does not
// know was answered PersistedQueryNotFound, which takes nothing from GraphQL strategies, but only
// after every other operation of the batch was parsed and costed: 19 large documents parsed per
// request, uncharged. The unknown hash is now found before anything is parsed.
import * as graphql from 'graphql';
import { chargesOf, postedContext, schema } from './support';

jest.mock('graphql', () => {
  const actual = jest.requireActual('graphql');
  return { ...actual, parse: jest.fn(actual.parse) };
});

describe('a batch with an unknown persisted hash', () => {
  it('is answered PersistedQueryNotFound before any of its documents is parsed', async () => {
    const charges = chargesOf([{ query: ['*'], charge: 'cost' }], { schema });
    const documents = Array.from({ length: 19 }, (_, index) => ({ query: `query Q${index} { articles { title } }` }));
    const unknown = { extensions: { persistedQuery: { version: 1, sha256Hash: 'ab'.repeat(32) } } };
    const answer = await charges.charge(postedContext([...documents, unknown]));
    expect({ answer, parses: jest.mocked(graphql.parse).mock.calls.length }).toEqual({
      answer: { kind: 'answer', charges: [0], status: 200, message: 'PersistedQueryNotFound', code: 'PERSISTED_QUERY_NOT_FOUND' },
      parses: 0,
    });
  });
});
