// Issue 35, finding of the last review (LOW): graphql-js's validation, which Apollo runs after the
// plugin, compares the fragments spread in a selection set pair by pair (OverlappingFieldsCanBeMerged),
// and only maxTokens and graphql-js's own work budget bounded it: 400 spreads of `me { name }` side by
// side (16 KB) took it 161 ms of CPU. graphql.maxFragmentSpreads now bounds the fragment spreads of
// one document as written, wherever they are (nested selection sets, inline fragments, fragment
// definitions, a name defined twice), counted in the pass that counts aliases. Inline fragments are
// left to maxAliases: graphql-js merges their fields into the selection set they are in and compares
// no inline fragment with another (100 of them with distinct aliases: under 1 ms). Before the fix every
// document below was charged (the 400 side by side [1]), none refused.
import { chargesOf, postedContext } from './support';

const range = (count: number): number[] => Array.from({ length: count }, (_, index) => index);
/** Fragments named `${prefix}0`.. of `on`, each selecting `body`. */
const fragments = (prefix: string, count: number, on: string, body: string): string => range(count).map((index) => `fragment ${prefix}${index} on ${on} { ${body} }`).join(' ');
const spreads = (prefix: string, count: number): string => range(count).map((index) => `...${prefix}${index}`).join(' ');

const me = [{ query: ['me'] }];
const answer = async (body: unknown) => {
  const charged = await chargesOf(me).charge(postedContext(body));
  return charged.kind === 'answer' ? { status: charged.status, message: charged.message, code: charged.code } : { charges: charged.charges };
};
const refused = (count: number) => ({ status: 400, message: `This document has ${count} fragment spreads, more than the 50 allowed (graphql.maxFragmentSpreads)`, code: 'GRAPHQL_VALIDATION_FAILED' });

describe('maxFragmentSpreads (50 by default)', () => {
  it('refuses a document spreading more fragments side by side than the bound, and charges one within it', async () => {
    expect([
      await answer({ query: `query { ${spreads('F', 400)} } ${fragments('F', 400, 'Query', 'me { name }')}` }),
      await answer({ query: `query { ${spreads('F', 51)} } ${fragments('F', 51, 'Query', 'me { name }')}` }),
      await answer({ query: `query { ${spreads('F', 50)} } ${fragments('F', 50, 'Query', 'me { name }')}` }),
    ]).toEqual([refused(400), refused(51), { charges: [1] }]);
  });

  it('counts the spreads of nested selection sets, inline fragments and fragment definitions, as written', async () => {
    expect([
      // Spread under fields, in two nested selection sets.
      await answer({ query: `query { me { ${spreads('A', 26)} articles { author { ${spreads('B', 25)} } } } } ${fragments('A', 26, 'Author', 'name')} ${fragments('B', 25, 'Author', 'name')}` }),
      // Inside inline fragments.
      await answer({ query: `query { ... on Query { me { ${spreads('A', 51)} } } } ${fragments('A', 51, 'Author', 'name')}` }),
      // In a fragment definition (1 spread of H, 50 in H).
      await answer({ query: `query { me { ...H } } fragment H on Author { ${spreads('A', 50)} } ${fragments('A', 50, 'Author', 'name')}` }),
      // A name defined twice (Apollo's UniqueFragmentNames error): both definitions' spreads count.
      await answer({ query: `query { me { ...H } } fragment H on Author { ${spreads('A', 25)} } fragment H on Author { ${spreads('A', 25)} } ${fragments('A', 25, 'Author', 'name')}` }),
      // One fragment spread again and again: each spread as written counts.
      await answer({ query: `query { me { ${'...A0 '.repeat(51)}} } ${fragments('A', 1, 'Author', 'name')}` }),
    ]).toEqual([refused(51), refused(51), refused(51), refused(51), refused(51)]);
  });

  it('counts a fragment spread in many places once per spread written, not once per place it is followed to', async () => {
    // H holds 10 spreads and is spread in 10 selection sets: 20 spreads written, 100 followed.
    const places = range(10).map((index) => `a${index}: me { ...H }`).join(' ');
    expect(await answer({ query: `query { ${places} } fragment H on Author { ${spreads('A', 10)} } ${fragments('A', 10, 'Author', 'name')}` })).toEqual({ charges: [10] });
  });

  it('bounds each document of a batch on its own, and refuses the batch when one is past it', async () => {
    const within = { query: `query { ${spreads('F', 50)} } ${fragments('F', 50, 'Query', 'me { name }')}` };
    const past = { query: `query { ${spreads('F', 51)} } ${fragments('F', 51, 'Query', 'me { name }')}` };
    expect([await answer([within, within, within]), await answer([within, past])]).toEqual([{ charges: [3] }, refused(51)]);
  });

  it('leaves inline fragments to maxAliases, which counts the fields they merge', async () => {
    const inline = (count: number) => range(count).map((index) => `... on Query { a${index}: me { name } }`).join(' ');
    expect([await answer({ query: `query { ${inline(100)} }` }), (await answer({ query: `query { ${inline(101)} }` })).message]).toEqual([
      { charges: [100] },
      'This document has 101 aliases and repeated fields, more than the 100 allowed (graphql.maxAliases)',
    ]);
  });

  it('is configurable', async () => {
    const charged = await chargesOf(me, { bounds: { maxFragmentSpreads: 400 } }).charge(postedContext({ query: `query { ${spreads('F', 400)} } ${fragments('F', 400, 'Query', 'me { name }')}` }));
    expect(charged.kind === 'charged' && charged.charges).toEqual([1]);
  });
});
