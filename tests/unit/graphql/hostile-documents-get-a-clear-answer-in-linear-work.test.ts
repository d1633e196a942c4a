// Issue 35 ("Hostile inputs"): what an attacker sends to the GraphQL endpoint is answered with a
// clear GraphQL error or charged, never a crash: brackets nested 3,000 and 100,000 deep (graphql-js's
// parser overflows its stack at about 3,000), 100,000 aliases, fragment cycles, long fragment
// chains, documents past maxTokens, enormous variables, an operationName naming nothing, batches past
// their bound. Each is one pass over the text or the document (no timing here: the bench measures).
import { chargesOf, postedContext } from './support';

const login = [{ mutation: ['login'] }];
const answer = async (body: unknown) => {
  const charged = await chargesOf(login).charge(postedContext(body));
  return charged.kind === 'answer' ? { status: charged.status, message: charged.message, charges: charged.charges } : { charges: charged.charges };
};

describe('hostile GraphQL requests', () => {
  it('refuse deep nesting before graphql-js parses it', async () => {
    expect(await answer({ query: `mutation ${'{ a '.repeat(3000)}${'}'.repeat(3000)}` })).toEqual({ status: 400, message: 'This document nests brackets more than 72 deep (twice graphql.maxDepth and 32)', charges: [1] });
    expect(await answer({ query: `{ f(a: ${'['.repeat(100_000)}${']'.repeat(100_000)}) }` })).toEqual({ status: 400, message: 'This document nests brackets more than 72 deep (twice graphql.maxDepth and 32)', charges: [1] });
    // Braces inside strings and comments nest nothing.
    expect(await answer({ query: `mutation { login(identifier: "${'{'.repeat(500)}") { jwt } } # ${'{'.repeat(500)}` })).toEqual({ charges: [1] });
  });

  it('refuse selections nested past maxDepth through fragments', async () => {
    const fragments = Array.from({ length: 30 }, (_, index) => `fragment F${index} on Mutation { ...F${index + 1} }`).join(' ');
    expect(await answer({ query: `mutation { ...F0 } ${fragments} fragment F30 on Mutation { login { jwt } }` })).toEqual({ status: 400, message: 'This document nests selections more than 20 deep (graphql.maxDepth)', charges: [1] });
  });

  it('refuse 100,000 aliases at maxTokens, and more aliases than maxAliases', async () => {
    const aliases = (count: number) => `mutation { ${Array.from({ length: count }, (_, index) => `a${index}: login { jwt }`).join(' ')} }`;
    expect(await answer({ query: aliases(100_000) })).toEqual({ status: 400, message: 'This document has more than 10000 tokens (graphql.maxTokens)', charges: [1] });
    expect(await answer({ query: aliases(101) })).toEqual({ status: 400, message: 'This document has 101 aliases and repeated fields, more than the 100 allowed (graphql.maxAliases)', charges: [1] });
    expect(await answer({ query: aliases(100) })).toEqual({ charges: [100] });
  });

  it('refuse fragment cycles', async () => {
    expect(await answer({ query: 'mutation { ...A } fragment A on Mutation { ...B } fragment B on Mutation { login { jwt } ...A }' })).toEqual({ status: 400, message: 'The fragment "A" spreads itself (a fragment cycle)', charges: [1] });
  });

  it('charge 1 for what runs nothing: a syntax error, an operationName naming nothing, no query', async () => {
    expect([
      await answer({ query: 'mutation { login(' }),
      await answer({ query: 'mutation A { login { jwt } }', operationName: 'Nowhere' }),
      await answer({ query: 'mutation A { login { jwt } } mutation B { login { jwt } }' }),
      await answer({ variables: {} }),
      await answer('text'),
    ]).toEqual([{ charges: [1] }, { charges: [1] }, { charges: [1] }, { charges: [1] }, { charges: [1] }]);
  });

  it('read only what counts in enormous variables', async () => {
    const variables = { identifier: 'x'.repeat(5_000_000), junk: Array.from({ length: 100_000 }, (_, index) => ({ index })) };
    expect(await answer({ query: 'mutation ($identifier: String) { login(identifier: $identifier) { jwt } }', variables })).toEqual({ charges: [1] });
  });

  it('refuse a batch past maxBatchOperations, and count every operation of one within it', async () => {
    const operation = { query: 'mutation { login { jwt } }' };
    expect(await answer(Array.from({ length: 21 }, () => operation))).toEqual({ status: 400, message: 'This batch has 21 operations, more than the 20 allowed (graphql.maxBatchOperations)', charges: [1] });
    expect(await answer(Array.from({ length: 10 }, () => operation))).toEqual({ charges: [10] });
  });
});
