// Issue 35 review, finding "a small batch of hashes forces heavy cost walks": the charges of an
// operation were remembered only when it declared no variables, so declaring one, even unused, brought
// the walk back for every operation of a batch naming its document by hash (a 3 KB batch of 20 hashes
// of a 35 KB document: 87.5 ms of CPU per request, 74 ms for a caller already refused). The charges
// now depend on the values of the variables the cost walk read, and on nothing else: an operation
// whose walk reads none is costed once, one that reads a page size once per value. The cost walk
// (QueryCost.field, once per root field) is counted. Before the fix: the unused `$v` batch walked 20
// times (40 root fields), the `$n` batch of two values 20 times (20 root fields); and a variable
// named `constructor` that the request did not give was read from Object.prototype (a page size of
// maxLimit 100: the text was charged 104, not 29).
import { createHash } from 'node:crypto';
import { QueryCost } from '../../../server/src/graphql/query-cost';
import { chargesOf, postedContext, schema } from './support';

const byHash = (query: string, variables: Record<string, unknown>) => ({ variables, extensions: { persistedQuery: { version: 1, sha256Hash: createHash('sha256').update(query).digest('hex') } } });

/** The charges of the document sent as text, then of a batch of 20 naming it by hash with `variables(i)`, and the root fields walked for each. */
async function textThenBatch(query: string, variables: (index: number) => Record<string, unknown>) {
  const walks = jest.spyOn(QueryCost.prototype, 'field');
  walks.mockClear();
  const charges = chargesOf([{ query: ['*'], charge: 'cost' }], { schema });
  const text = await charges.charge(postedContext({ query, variables: variables(0) }));
  const afterText = walks.mock.calls.length;
  const batch = await charges.charge(postedContext(Array.from({ length: 20 }, (_, index) => byHash(query, variables(index)))));
  return { text, batch, walks: [afterText, walks.mock.calls.length - afterText] };
}

describe('the charges of an operation', () => {
  it('are remembered whatever the values of a variable the cost walk does not read', async () => {
    const query = 'query Q($v: Int) { articles(pagination: { pageSize: 10 }) { title author { name } } authors: articles { title } }';
    // articles: 10 x (1 + author 1) = 20; authors: 25 x 1.
    expect(await textThenBatch(query, (index) => ({ v: index }))).toEqual({
      text: { kind: 'charged', charges: [45] },
      batch: { kind: 'charged', charges: [20 * 45] },
      walks: [2, 0],
    });
  });

  it('are remembered by the values of the page sizes the cost walk reads', async () => {
    const query = 'query Q($n: Int, $unused: Int) { articles(pagination: { pageSize: $n }) { title } }';
    // n alternates 2 and 7 (the text sends 2): 10 x 2 + 10 x 7; 7 is costed once, 2 was costed for the text.
    expect(await textThenBatch(query, (index) => ({ n: index % 2 === 0 ? 2 : 7, unused: index }))).toEqual({
      text: { kind: 'charged', charges: [2] },
      batch: { kind: 'charged', charges: [10 * 2 + 10 * 7] },
      walks: [1, 1],
    });
  });

  it('take a variable the request does not give as absent, whatever its name, and its declared default as graphql-js does', async () => {
    const query = 'query Q($constructor: Int, $d: Int = 4) { a: articles(pagination: { pageSize: $constructor }) { title } b: articles(pagination: { pageSize: $d }) { title } }';
    // a: the default page size 25 (before: Object.prototype.constructor, read as a page size it cannot be, maxLimit 100); b: 4.
    expect(await textThenBatch(query, () => ({}))).toEqual({
      text: { kind: 'charged', charges: [25 + 4] },
      batch: { kind: 'charged', charges: [20 * 29] },
      walks: [2, 0],
    });
  });
});
