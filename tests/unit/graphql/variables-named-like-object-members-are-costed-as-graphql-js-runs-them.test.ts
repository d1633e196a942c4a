// Issue 35, hardening after the review, gap 2: variables whose names are members of Object.prototype
// (`$__proto__`, `$constructor`, `$hasOwnProperty`) and variables objects carrying `__proto__` keys
// (JSON.parse makes `__proto__` an own property) are costed as graphql-js 16 runs them: it keeps
// variables in an object without a prototype and reads only its own properties. Each operation is
// run by graphql-js on the suite's schema, its `articles` resolver serving the rows Strapi's GraphQL
// plugin would (withDefaultPagination of @strapi/utils, defaultLimit 25, maxLimit 100), and charged by
// a cost strategy (`title` only: the cost is the rows). Before the fix, `$__proto__: Int = 60` sent
// without `__proto__` was charged 25 where 60 rows ran (the declared default was assigned to
// `variables.__proto__`, which sets a prototype or nothing, so the plugin read no page size), and
// so was `$__proto__: PaginationArg = { pageSize: 60 }`: with Strapi's maxLimit of -1 (its
// default) `= 100000` ran 100,000 rows for 25 tokens.
import { pagination } from '@strapi/utils';
import { graphql } from 'graphql';
import type { Context } from 'koa';
import { chargesOf, postedContext, schema } from './support';

const served = (args: { pagination?: Record<string, number> }): number =>
  pagination.withDefaultPagination(args.pagination ?? {}, { maxLimit: 100, defaults: { offset: { limit: 25 }, page: { pageSize: 25 } } }).limit as number;

/** The rows graphql-js serves for `query` with the variables of `variablesJson`. */
async function rowsRun(query: string, variablesJson: string): Promise<number> {
  let rows = 0;
  const result = await graphql({ schema, source: query, variableValues: JSON.parse(variablesJson), rootValue: { articles: (args: { pagination?: Record<string, number> }) => ((rows += served(args)), []) } });
  if (result.errors) throw new Error(`graphql-js refused ${query}: ${result.errors.map((error) => error.message).join('; ')}`);
  return rows;
}

const gotten = (query: string, variablesJson: string): Context =>
  ({ method: 'GET', path: '/graphql', querystring: new URLSearchParams({ query, variables: variablesJson }).toString(), request: {} }) as unknown as Context;

/** Each case: how it is sent, the document (`X` standing for the variable's name) and the variables' JSON. */
const CASES: ReadonlyArray<readonly [label: string, method: 'POST' | 'GET', query: string, variables: string]> = [
  ['given', 'POST', 'query Q($X: Int) { articles(pagination: { pageSize: $X }) { title } }', '{"X": 60}'],
  ['given by GET', 'GET', 'query Q($X: Int) { articles(pagination: { pageSize: $X }) { title } }', '{"X": 40}'],
  ['absent', 'POST', 'query Q($X: Int) { articles(pagination: { pageSize: $X }) { title } }', '{}'],
  // The same document three times: the charges remembered by the values the walk read must not mix a given value and a default.
  ['given over a default', 'POST', 'query Q($X: Int = 60) { articles(pagination: { pageSize: $X }) { title } }', '{"X": 7}'],
  ['its default', 'POST', 'query Q($X: Int = 60) { articles(pagination: { pageSize: $X }) { title } }', '{}'],
  ['given over a default again', 'POST', 'query Q($X: Int = 60) { articles(pagination: { pageSize: $X }) { title } }', '{"X": 7}'],
  ['given beside a default', 'POST', 'query Q($X: Int, $d: Int = 3) { a: articles(pagination: { pageSize: $X }) { title } b: articles(pagination: { pageSize: $d }) { title } }', '{"X": 60}'],
  ['a pagination default', 'POST', 'query Q($X: PaginationArg = { pageSize: 60 }) { articles(pagination: $X) { title } }', '{}'],
  ['a pagination given', 'POST', 'query Q($X: PaginationArg) { articles(pagination: $X) { title } }', '{"X": {"pageSize": 60}}'],
];

const NAMES = ['__proto__', 'constructor', 'hasOwnProperty', 'n'] as const;

type Row = [name: string, label: string, charged: number, ran: number];

/** Each case of `cases` for each of `names`, charged in order by one limiter per name, beside the rows graphql-js ran. */
async function chargedAndRun(names: readonly string[], cases: typeof CASES): Promise<Row[]> {
  const rows: Row[] = [];
  for (const name of names) {
    const charges = chargesOf([{ query: ['articles'], charge: 'cost' }], { schema });
    for (const [label, method, template, variablesTemplate] of cases) {
      const query = template.replaceAll('X', name);
      const variables = variablesTemplate.replaceAll('"X"', JSON.stringify(name));
      const charged = await charges.charge(method === 'GET' ? gotten(query, variables) : postedContext({ query, variables: JSON.parse(variables) }));
      rows.push([name, label, charged.kind === 'charged' ? charged.charges[0] : -1, await rowsRun(query, variables)]);
    }
  }
  return rows;
}

/** For each of `names`, each case charged and run `ran[index]` rows. */
const chargedAsRun = (names: readonly string[], cases: typeof CASES, ran: readonly number[]): Row[] => names.flatMap((name) => ran.map((rows, index): Row => [name, cases[index][0], rows, rows]));

describe('a variable named like a member of Object.prototype', () => {
  it('is costed as graphql-js runs it: given, absent, defaulted, or as a pagination object', async () => {
    expect(await chargedAndRun(NAMES, CASES)).toEqual(chargedAsRun(NAMES, CASES, [60, 40, 25, 7, 60, 7, 63, 60, 60]));
  });

  it('is not read from an object under a __proto__ key of the variables, which graphql-js does not read either', async () => {
    // (For `$__proto__` itself that object is its value: not an Int, so graphql-js runs nothing.)
    const hidden: typeof CASES = [
      ['under a __proto__ key', 'POST', 'query Q($X: Int) { articles(pagination: { pageSize: $X }) { title } }', '{"__proto__": {"X": 60}}'],
      ['under a __proto__ key with a default', 'POST', 'query Q($X: Int = 9) { articles(pagination: { pageSize: $X }) { title } }', '{"__proto__": {"X": 60}}'],
    ];
    const names = NAMES.filter((name) => name !== '__proto__');
    expect(await chargedAndRun(names, hidden)).toEqual(chargedAsRun(names, hidden, [25, 9]));
  });
});
