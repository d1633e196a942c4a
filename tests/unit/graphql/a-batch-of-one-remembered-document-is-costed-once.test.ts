// Issue 35 review: a request whose operations all name one remembered document (by its persisted
// query hash) walked that document once per operation before any limit was checked: a 2.5 KB batch
// of 20 hashes of a 9,000-token document cost 26 ms of CPU, again and again, even from a blocked
// caller. The charges of an operation that declares no variables depend on nothing else, so they are
// remembered with the document: the cost walk (QueryCost.field, counted here) runs once for it.
// Before: 3 field walks for the text, then 60 for the batch.
import { createHash } from 'node:crypto';
import { QueryCost } from '../../../server/src/graphql/query-cost';
import { chargesOf, postedContext, schema } from './support';

const query = '{ articles(pagination: { pageSize: 10 }) { title author { name } } a2: articles { title } authors { name } }';
const persisted = { extensions: { persistedQuery: { version: 1, sha256Hash: createHash('sha256').update(query).digest('hex') } } };

describe('an operation that declares no variables', () => {
  it('is costed once, however many times requests name its document', async () => {
    const walks = jest.spyOn(QueryCost.prototype, 'field');
    const charges = chargesOf([{ query: ['*'], charge: 'cost' }], { schema });
    const text = await charges.charge(postedContext({ query }));
    const afterText = walks.mock.calls.length;
    const batch = await charges.charge(postedContext(Array.from({ length: 20 }, () => persisted)));
    // articles: 10 x (1 + author 1) = 20; a2: 25 x 1 = 25; authors: 25 x 1 = 25.
    expect({ text, batch, walks: [afterText, walks.mock.calls.length - afterText] }).toEqual({
      text: { kind: 'charged', charges: [70] },
      batch: { kind: 'charged', charges: [20 * 70] },
      walks: [3, 0],
    });
  });

  it('is costed again for each request when it declares variables, whose values may change its cost', async () => {
    const paged = 'query Paged($n: Int) { articles(pagination: { pageSize: $n }) { title } }';
    const charges = chargesOf([{ query: ['*'], charge: 'cost' }], { schema });
    const sizes = [];
    for (const n of [2, 7]) sizes.push(await charges.charge(postedContext({ query: paged, variables: { n } })));
    expect(sizes).toEqual([
      { kind: 'charged', charges: [2] },
      { kind: 'charged', charges: [7] },
    ]);
  });
});
