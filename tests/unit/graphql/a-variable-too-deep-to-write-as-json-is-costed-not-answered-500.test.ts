// Issue 35 review (of the remembered charges): the key of an operation's remembered charges was the
// JSON of the whole value of each variable the cost walk reads, written before its length was
// checked, so a variable nested 10,000 arrays deep (a 20 KB body, which JSON.parse still reads)
// overflowed JSON.stringify's stack: the charge threw a RangeError, the request got a 500 and took no
// token, so a flood of them was never limited. The key is now built from what the walk can read of a
// value (a page size, or a pagination object's pageSize and limit), without recursion. fast-check then
// proves the key sound: whatever the values, a GraphqlCharges that remembers charges charges every
// request as one that has never seen any.
import fc from 'fast-check';
import { chargesOf, postedContext, schema } from './support';

const deeplyNested = (depth: number): unknown => {
  let value: unknown = [];
  for (let level = 0; level < depth; level++) value = [value];
  return value;
};

const PAGINATED = 'query Q($p: PaginationArg, $n: Int) { articles(pagination: $p) { title author { name } } more: articles(pagination: { pageSize: $n, limit: 3 }) { title } }';

describe('a variable the cost walk reads', () => {
  it('nested too deep to write as JSON is costed as the unbounded page it is, not answered 500', async () => {
    const charges = chargesOf([{ query: ['*'], charge: 'cost' }], { schema });
    const request = postedContext({ query: PAGINATED, variables: { p: deeplyNested(10_000), n: deeplyNested(10_000) } });
    // articles: not a pagination object, an unbounded page (maxLimit 100) x (1 + author 1); more: not a number, unbounded, 100 x 1.
    expect(await charges.charge(request)).toEqual({ kind: 'charged', charges: [100 * 2 + 100] });
  });

  it('keys remembered charges soundly: a request costs the same as on charges that remember nothing', async () => {
    // Values close to one another in every way a key could blur them: numbers, their text, their rounding, null and absent, containers.
    const pageSize = fc.constantFrom(0, -0, 1, 1.5, 2, 3, 100, 101, -1, 1e21, null, undefined, '2', true, [], [2], {});
    const pagination = fc.oneof(pageSize, fc.record({ pageSize, limit: pageSize }, { requiredKeys: [] }), fc.record({ pageSize: fc.record({ pageSize }) }));
    const variables = fc.record({ p: pagination, n: pageSize }, { requiredKeys: [] });
    await fc.assert(
      fc.asyncProperty(fc.array(variables, { minLength: 1, maxLength: 20 }), async (requests) => {
        const remembering = chargesOf([{ query: ['*'], charge: 'cost' }], { schema });
        for (const values of requests) {
          const fresh = chargesOf([{ query: ['*'], charge: 'cost' }], { schema });
          const body = () => ({ query: PAGINATED, variables: JSON.parse(JSON.stringify(values)) as Record<string, unknown> });
          expect(await remembering.charge(postedContext(body()))).toEqual(await fresh.charge(postedContext(body())));
        }
      }),
      { numRuns: 300 },
    );
  });
});
