// Issue 35 review, finding "maxAliases does not bound Apollo's validation work": only aliases were
// counted, and a document of 2,000 unaliased `articles { title }` (38 KB, within maxTokens) made
// graphql-js's validation, which Apollo runs, compare the same-named fields pairwise
// (OverlappingFieldsCanBeMerged: 781 ms), while the plugin charged it 1. Each field that repeats a
// response key of its selection set (the inline fragments in it included, as graphql-js merges them)
// now counts toward maxAliases as an alias does. Before the fix: the 2,000 repeats, the 102 and the
// 101 through inline fragments were charged [1], and 50 aliases beside 51 repeated `title` were charged [2].
import { chargesOf, postedContext } from './support';

const articles = [{ query: ['articles'] }];
const answer = async (query: string) => {
  const charged = await chargesOf(articles).charge(postedContext({ query }));
  return charged.kind === 'answer' ? { status: charged.status, message: charged.message } : { charges: charged.charges };
};

describe('maxAliases', () => {
  it('counts each field that repeats a response key of its selection set, as an alias', async () => {
    expect([
      await answer(`{ ${'articles { title } '.repeat(2000)}}`),
      // 101 fields, 100 of them repeats: within the bound; one more is past it.
      await answer(`{ ${'articles { title } '.repeat(101)}}`),
      await answer(`{ ${'articles { title } '.repeat(102)}}`),
      // Inline fragments merge with the selection set they are in.
      await answer(`{ articles { title } ${'... on Query { articles { title } } '.repeat(101)}}`),
      // An aliased repeat counts once; nested selection sets count their own repeats.
      await answer(`{ ${'a: articles { title } '.repeat(50)} articles { ${'title '.repeat(52)}} }`),
      // The same name in different selection sets repeats nothing.
      await answer('{ articles { title author { name articles { title } } } me { name articles { title } } }'),
    ]).toEqual([
      { status: 400, message: 'This document has 1999 aliases and repeated fields, more than the 100 allowed (graphql.maxAliases)' },
      { charges: [1] },
      { status: 400, message: 'This document has 101 aliases and repeated fields, more than the 100 allowed (graphql.maxAliases)' },
      { status: 400, message: 'This document has 101 aliases and repeated fields, more than the 100 allowed (graphql.maxAliases)' },
      { status: 400, message: 'This document has 101 aliases and repeated fields, more than the 100 allowed (graphql.maxAliases)' },
      { charges: [1] },
    ]);
  });
});
