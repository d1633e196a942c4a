// Issue 35, hardening after the review, gap 3 (an attacker's view): a strategy naming every root
// field of a type (`query: ['*']`, "a budget for the whole API") took nothing from an operation that
// selects only `__typename`, and no strategy took anything from a subscription, which Strapi does not
// serve: such requests were never limited. Apollo still parses and validates each, and graphql-js
// validation compares the fragments spread side by side in a selection set pair by pair: 1,100
// fragments `on Query { __typename }` spread in one query (9,902 tokens, within maxTokens, no alias)
// took 85 ms of CPU to validate (graphql 16.15 stops that comparison past a work budget; older 16.x
// releases do not), for nothing (graphql.maxFragmentSpreads now refuses such a document by default;
// raised here, as an app may). Now a `*` strategy takes at least 1 from every operation of its type
// (its count, or its cost), and a subscription takes 1 from every GraphQL strategy, as an operation
// the plugin cannot tie to fields does; a strategy naming fields still leaves other operations alone.
import { chargesOf, postedContext, schema } from './support';

const FRAGMENTS = 1100;
const fragmentsOfTypename = `{ ${Array.from({ length: FRAGMENTS }, (_, index) => `...F${index}`).join(' ')} } ${Array.from({ length: FRAGMENTS }, (_, index) => `fragment F${index} on Query { __typename }`).join(' ')}`;

describe('an operation that runs no counted field', () => {
  it('takes 1 from a strategy of every root field of its type, by count or by cost, and nothing from one naming fields', async () => {
    const charges = chargesOf(
      [
        { query: ['*'] },
        { query: ['*'], charge: 'cost' },
        { mutation: ['*'] },
        { query: ['articles'], charge: 'cost' },
      ],
      { schema, bounds: { maxFragmentSpreads: FRAGMENTS } },
    );
    const charged = [];
    for (const query of ['{ __typename }', fragmentsOfTypename, 'mutation { __typename }', '{ me { name } }']) charged.push(await charges.charge(postedContext({ query })));
    expect(charged).toEqual([
      { kind: 'charged', charges: [1, 1, 0, 0] },
      { kind: 'charged', charges: [1, 1, 0, 0] },
      { kind: 'charged', charges: [0, 0, 1, 0] },
      { kind: 'charged', charges: [1, 1, 0, 0] },
    ]);
  });

  it('takes 1 from every GraphQL strategy when it is a subscription, which Strapi does not serve', async () => {
    const charges = chargesOf([{ query: ['*'] }, { mutation: ['login'] }], { schema });
    expect(await charges.charge(postedContext({ query: 'subscription { __typename }' }))).toEqual({ kind: 'charged', charges: [1, 1] });
  });
});
