// Issue 35 review, finding "a small batch of hashes forces heavy cost walks": a request naming one
// remembered document by its hash 20 times, each operation with a new page size, made the plugin walk
// the document 20 times before any limit was checked, from a body of a few KB. The cost walks of one
// request now read at most maxTokens selections together, as many as one document within maxTokens
// can hold; past that the request is answered 400 and takes 1 from every GraphQL strategy, as a
// document past a bound. Operations whose charges are remembered need no walk. The cost walk
// (QueryCost.field, once per root field) is counted. Before the fix: the batch was charged
// (1 + ... + 20) x 201 = 42,210 after 20 walks.
import { createHash } from 'node:crypto';
import { QueryCost } from '../../../server/src/graphql/query-cost';
import { chargesOf, postedContext, schema } from './support';

// About 810 tokens; its cost walk reads 400 selections (200 authors and their names).
const query = `query Q($n: Int) { articles(pagination: { pageSize: $n }) { ${'author { name } '.repeat(200)}} }`;
const byHash = (n: number) => ({ variables: { n }, extensions: { persistedQuery: { version: 1, sha256Hash: createHash('sha256').update(query).digest('hex') } } });

describe('the cost walks of one request', () => {
  it('read at most maxTokens selections together, however many operations name a remembered document by its hash', async () => {
    const walks = jest.spyOn(QueryCost.prototype, 'field');
    // Repeated fields count toward maxAliases: raised here, so that only the walk budget bounds the request.
    const charges = chargesOf([{ query: ['*'], charge: 'cost' }], { schema, bounds: { maxTokens: 1000, maxAliases: 1000 } });
    const text = await charges.charge(postedContext({ query, variables: { n: 1 } }));
    walks.mockClear();
    const batch = await charges.charge(postedContext(Array.from({ length: 20 }, (_, index) => byHash(index + 1))));
    const batchWalks = walks.mock.calls.length;
    // One operation alone never passes the budget: a document within maxTokens has fewer selections.
    const alone = await charges.charge(postedContext(byHash(20)));
    expect({ text, batch, batchWalks, alone }).toEqual({
      text: { kind: 'charged', charges: [201] },
      batch: {
        kind: 'answer',
        charges: [1],
        status: 400,
        message: 'The operations of this request have more than 1000 selections to cost together (graphql.maxTokens): send fewer or smaller operations in one request',
        code: 'GRAPHQL_VALIDATION_FAILED',
      },
      // n = 1 is remembered from the text; n = 2 and 3 read 800 selections, and the walk of n = 4 stops past 1,000.
      batchWalks: 3,
      alone: { kind: 'charged', charges: [20 * 201] },
    });
  });
});
