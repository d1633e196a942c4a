// Issue 35, hardening after the review, gap 3 (an attacker's view): page sizes a client may send to
// make a cost strategy charge less than what runs: huge, negative, fractional and string numbers,
// as literals, as `Int` variables and inside pagination objects, offsets and both kinds of
// pagination at once. Each operation is run by graphql-js on the suite's schema, its `articles`
// resolver serving the rows Strapi's GraphQL plugin would (withDefaultPagination of @strapi/utils,
// defaultLimit 25, maxLimit 100; a value graphql-js refuses, or Strapi throws on, serves nothing),
// and charged by a cost strategy (`title` only: the cost is the rows). No finding: every one is
// charged at least what is served (the plugin reads anything it cannot take as a page size as
// maxLimit); this keeps it so.
import { pagination } from '@strapi/utils';
import { graphql } from 'graphql';
import { chargesOf, postedContext, schema } from './support';

const served = (args: { pagination?: Record<string, number> }): number =>
  pagination.withDefaultPagination(args.pagination ?? {}, { maxLimit: 100, defaults: { offset: { limit: 25 }, page: { pageSize: 25 } } }).limit as number;

/** The rows graphql-js serves for the operation (0 when it refuses it or the resolver throws). */
async function rowsRun(query: string, variables: Record<string, unknown>): Promise<number> {
  let rows = 0;
  await graphql({ schema, source: query, variableValues: variables, rootValue: { articles: (args: { pagination?: Record<string, number> }) => ((rows += served(args)), []) } });
  return rows;
}

const NUMBERS = ['1e308', '-1e308', '-1', '-5', '0', '1', '"100"', '"1e9"', '2147483647', '2147483648', '1.5', '100.0', '1e2', 'null', 'true', '[]', '[1000]', '{}'];
const LITERALS = ['1e308', '-1', '-5', '0', '99999999999', '2147483647', 'null', '"100"'];
const OBJECTS = ['{"pageSize": 1000}', '{"limit": -1}', '{"pageSize": -1}', '{"page": 1000000, "pageSize": 100}', '{"page": 3}', '{"start": 5}', '{"start": 5, "limit": 1e9}', '{"pageSize": 5, "limit": 1000}', '{"pageSize": null, "limit": 60}', '[{"pageSize": 1}]', '[]', 'null'];

/** Each request: what it sends, the document and its variables. */
function requests(): Array<[string, string, Record<string, unknown>]> {
  const sent: Array<[string, string, Record<string, unknown>]> = [];
  for (const json of NUMBERS) {
    for (const key of ['pageSize', 'limit']) sent.push([`${key}: $n = ${json}`, `query Q($n: Int) { articles(pagination: { ${key}: $n }) { title } }`, { n: JSON.parse(json) }]);
  }
  for (const literal of LITERALS) {
    for (const key of ['pageSize', 'limit']) sent.push([`${key}: ${literal}`, `{ articles(pagination: { ${key}: ${literal} }) { title } }`, {}]);
  }
  for (const json of OBJECTS) sent.push([`pagination: $p = ${json}`, 'query Q($p: PaginationArg) { articles(pagination: $p) { title } }', { p: JSON.parse(json) }]);
  return sent;
}

describe('a hostile page size', () => {
  it('is charged at least the rows Strapi serves for it, as a literal, a variable or a pagination object', async () => {
    const charges = chargesOf([{ query: ['articles'], charge: 'cost' }], { schema });
    const undercharged: Array<[string, number, number]> = [];
    let checked = 0;
    // Requests graphql-js and Strapi served rows for (the others were refused, which runs nothing).
    let ran = 0;
    for (const [label, query, variables] of requests()) {
      const charged = await charges.charge(postedContext({ query, variables }));
      const charge = charged.kind === 'charged' ? charged.charges[0] : 0;
      const rows = await rowsRun(query, variables);
      checked += 1;
      if (rows > 0) ran += 1;
      if (charge < rows) undercharged.push([label, charge, rows]);
    }
    expect([checked, ran, undercharged]).toEqual([NUMBERS.length * 2 + LITERALS.length * 2 + OBJECTS.length, 35, []]);
  });
});
