// Issue 35, a leftover of the review of its last stop: graphql-js's validation compares the fragments
// spread side by side in a selection set pair by pair (OverlappingFieldsCanBeMergedRule): 161 ms of CPU
// for 400 fragments with graphql 16.15, which graphql.maxFragmentSpreads now refuses (raised here, so
// that the plugin reads the documents below whole). That validation is Apollo's, after the plugin
// (docs/graphql.md, "Document bounds"): the plugin never calls graphql-js's validate, and its own
// passes over a document it has not seen (the alias count, the depth walk, the root fields, the cost
// walk) read each selection set a fixed number of times, whatever the document holds. This counts
// those reads (selection-reads.ts) for hostile documents of growing size: fragments spread side by
// side, aliases of one field, nesting. No fix was needed; a pass comparing pairs would read a set
// once per pair, and the counts would grow with the size.
import { MAX_COST } from '../../../server/src/graphql/query-cost';
import { chargesOf, postedContext, schema } from './support';
import { counting, reads } from './selection-reads';

jest.mock('graphql', () => {
  const actual = jest.requireActual('graphql');
  const { countReads } = jest.requireActual('./selection-reads');
  return { ...actual, parse: (...args: Parameters<typeof actual.parse>) => countReads(actual.parse(...args)) };
});

const range = (count: number): number[] => Array.from({ length: count }, (_, index) => index);

const HOSTILE: Record<string, { sizes: number[]; document: (size: number) => string }> = {
  'fragments spread side by side': {
    sizes: [100, 200, 400],
    document: (size) => `query { ${range(size).map((index) => `...F${index}`).join(' ')} } ${range(size).map((index) => `fragment F${index} on Query { me { name } }`).join(' ')}`,
  },
  'aliases of one field': {
    sizes: [100, 200, 400],
    document: (size) => `query { ${range(size).map((index) => `a${index}: articles { title }`).join(' ')} }`,
  },
  nesting: {
    sizes: [24, 48, 96],
    document: (size) => `query { me { ${'articles { author { '.repeat(size)}name${' } }'.repeat(size)} } }`,
  },
};

describe('the plugin, on a hostile document it has not seen', () => {
  it('reads each selection set a fixed number of times whatever the size, and never validates', async () => {
    // The module object the plugin's sources require (a namespace import would be a copy of it).
    const validate = jest.spyOn(jest.requireMock<typeof import('graphql')>('graphql'), 'validate');
    // A count and a cost strategy over every query field, so that every pass runs; bounds raised so that none refuses.
    const charges = chargesOf([{ query: ['*'] }, { query: ['*'], charge: 'cost' }], { schema, bounds: { maxAliases: 1000, maxDepth: 200, maxFragmentSpreads: 1000 } });
    // Per shape, per size: [selection sets, the most reads of any of them, the count and cost charged].
    const seen: Record<string, unknown[]> = {};
    for (const [shape, { sizes, document }] of Object.entries(HOSTILE)) {
      seen[shape] = [];
      for (const size of sizes) {
        reads.clear();
        counting.on = true;
        const charged = await charges.charge(postedContext({ query: document(size) }));
        counting.on = false;
        seen[shape].push([reads.size, Math.max(...reads.values()), charged.kind === 'charged' ? charged.charges : charged]);
      }
    }
    // Each set is read by the alias count (graphql-js's visit, then the count), the depth walk, and the root fields or the cost walk.
    expect([seen, validate.mock.calls.length]).toEqual([
      {
        'fragments spread side by side': [[201, 4, [1, 100]], [401, 4, [1, 200]], [801, 4, [1, 400]]],
        'aliases of one field': [[101, 4, [100, 2500]], [201, 4, [200, 5000]], [401, 4, [400, 10000]]],
        nesting: [[50, 4, [1, MAX_COST]], [98, 4, [1, MAX_COST]], [194, 4, [1, MAX_COST]]],
      },
      0,
    ]);
  });
});
