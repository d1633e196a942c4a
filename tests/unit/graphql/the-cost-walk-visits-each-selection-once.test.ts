// Issue 35 review, finding "the cost walk must be linear in the document": a document of 330
// connections, each with its own page size and spreading one large fragment, made the cost walk
// walk the fragment once per page size, about 330 times its size, before the request was refused as
// too costly; and each cost strategy walked the root fields again. The walk now costs each field and
// fragment once per operation, whatever page size it is spread under and however many cost
// strategies there are: every selection set of the document is read once. graphql-js's parse is
// wrapped to count the reads of each selection set's selections; a second request with the same
// text reuses the remembered document, so only the cost walk reads it then. Before the change, with
// three cost strategies: each of the fragment's 252 sets was read 330 times and each connection's 3 times.
import { chargesOf, postedContext, schema } from './support';
import { counting, reads, setsByReads } from './selection-reads';

jest.mock('graphql', () => {
  const actual = jest.requireActual('graphql');
  const { countReads } = jest.requireActual('./selection-reads');
  return { ...actual, parse: (...args: Parameters<typeof actual.parse>) => countReads(actual.parse(...args)) };
});

const CONNECTIONS = 330;
// 626 selections in 252 selection sets in one fragment (each article with its author and the
// author's articles); the document is about 5,300 tokens, within the default maxTokens.
const fragment = `fragment Big on ArticleConnection { nodes { ${'title author { name articles { title } } '.repeat(125)} } }`;
// The first connection's page size is a variable, and the second request gives it another value, so
// the charges remembered for the first (remembered-charges.ts) do not serve it and it walks again.
const pageSize = (index: number) => (index === 0 ? '$first' : String(index + 1));
const query = `query Walked($first: Int) { ${Array.from({ length: CONNECTIONS }, (_, index) => `articles_connection(pagination: { pageSize: ${pageSize(index)} }) { ...Big }`).join(' ')} } ${fragment}`;

describe('the cost walk', () => {
  it('reads each selection set of a document once, whatever page sizes a fragment is spread under and however many cost strategies charge it', async () => {
    const strategies = [{ query: ['articles_connection'], charge: 'cost' as const }, { query: ['*'], charge: 'cost' as const }, { query: ['articles_connection'], charge: 'cost' as const }];
    // The connections and the fragment's fields repeat their response keys, which count toward maxAliases, and the 330 spreads toward maxFragmentSpreads: raised here, so the walk is what is measured.
    const charges = chargesOf(strategies, { schema, maxLimit: 0, bounds: { maxAliases: 1000, maxFragmentSpreads: 1000 } });
    const first = await charges.charge(postedContext({ query, variables: { first: 1 } }));
    reads.forEach((_, set) => reads.set(set, 0));
    counting.on = true;
    const second = await charges.charge(postedContext({ query, variables: { first: 2 } }));
    counting.on = false;
    // Each connection: 1 + its page size k x (1 per article + 125 x (its author 1 + the author's 25 articles)).
    const cost = Array.from({ length: CONNECTIONS }, (_, index) => 1 + (index + 1) * (1 + 125 * (1 + 25))).reduce((a, b) => a + b);
    // How many selection sets were read how many times: the operation's own set is read when its root
    // fields are found, once per remembered document, so not at all the second time; all others once.
    expect({ first, second, setsByReads: setsByReads() }).toEqual({
      first: { kind: 'charged', charges: [cost, cost, cost] },
      // The first connection's second page item: 1 + 125 x 26 more.
      second: { kind: 'charged', charges: [cost + 3251, cost + 3251, cost + 3251] },
      setsByReads: { 0: 1, 1: CONNECTIONS + 2 + 2 * 125 },
    });
  });
});
